// Types of scripts/chromium.mjs for the TypeScript that imports it (playwright.config.ts, its unit test).
export const SYSTEM_CHROMIUM: string;
export const NPM_CHROMIUM: string;
export const CHROMIUM_ARGS: string[];
export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'npm';
export function isExecutable(file: string): boolean;
export function resolveChromium(options?: {
  env?: Record<string, string | undefined>;
  system?: string;
  packaged?: () => Promise<string>;
}): Promise<{ path: string; source: ChromiumSource }>;
export function describeSource(source: ChromiumSource): string;
export function chromiumPathSync(): string;
