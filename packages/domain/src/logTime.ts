/** Log times are shown HH:mm:ss DD-MM-YYYY (spec 3 §9), in the viewer's local time. */
export function formatLogTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${two(d.getDate())}-${two(d.getMonth() + 1)}-${d.getFullYear()}`;
}
