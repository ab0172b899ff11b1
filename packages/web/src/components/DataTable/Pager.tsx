import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import { Box, MenuItem, Select, Typography } from '@mui/material';
import { memo, useId } from 'react';
import { TABLE_TEXTS } from '../tableTexts';
import { sizeOf } from './listState';
import { ToolButton } from './PopoverButton';
import type { PageSizeOption } from './types';

let pagerFormat: Intl.NumberFormat | undefined;

/**
 * The pager's numbers as `toLocaleString(TABLE_TEXTS.language)` writes them. Below 1,000 a whole number is
 * its digits in any case: written without Intl, whose Serbian data took ~12 ms to load in a list's first
 * commit (issue 13 item 3); larger ones through one formatter made at their first use.
 */
function pagerNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  pagerFormat ??= new Intl.NumberFormat(TABLE_TEXTS.language);
  return pagerFormat.format(n);
}

type PagerProps = {
  pageIndex: number;
  pageSize: number;
  total: number;
  options: readonly PageSizeOption[];
  onPage: (pageIndex: number) => void;
  onPageSize: (pageSize: number) => void;
};

/** The index of the last page of `total` rows (0 when there are none). */
export const lastPageIndex = (total: number, pageSize: number) => Math.max(0, Math.ceil(total / pageSize) - 1);

/** The page-size select ('Редова по страници'), '11-20 од 34' and the first/previous/next/last buttons. */
export const Pager = memo(function Pager({ pageIndex, pageSize, total, options, onPage, onPageSize }: PagerProps) {
  const labelId = useId();
  const lastPage = lastPageIndex(total, pageSize);
  const first = pageIndex * pageSize + 1;
  const last = Math.min((pageIndex + 1) * pageSize, total);
  const back = pageIndex <= 0;
  const ahead = last >= total;
  return (
    <Box
      className="dt-pager"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 1, px: 1, py: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography id={labelId} component="span" variant="body2">
          {TABLE_TEXTS.rowsPerPage}
        </Typography>
        <Select
          labelId={labelId}
          variant="standard"
          disableUnderline
          value={pageSize}
          onChange={(e) => onPageSize(Number(e.target.value))}
          MenuProps={{ disableScrollLock: true }}
        >
          {options.map((option) => {
            const value = sizeOf(option);
            return (
              <MenuItem key={value} value={value}>
                {typeof option === 'number' ? String(option) : option.label}
              </MenuItem>
            );
          })}
        </Select>
      </Box>
      <Typography component="span" variant="body2" sx={{ mx: 0.5, minWidth: '8ch', textAlign: 'center' }}>
        {`${last === 0 ? 0 : pagerNumber(first)}-${pagerNumber(last)} ${TABLE_TEXTS.of} ${pagerNumber(total)}`}
      </Typography>
      <Box sx={{ display: 'flex' }}>
        <ToolButton label={TABLE_TEXTS.goToFirstPage} disabled={back} onClick={() => onPage(0)} icon={FirstPageIcon} />
        <ToolButton label={TABLE_TEXTS.goToPreviousPage} disabled={back} onClick={() => onPage(pageIndex - 1)} icon={ChevronLeftIcon} />
        <ToolButton label={TABLE_TEXTS.goToNextPage} disabled={ahead} onClick={() => onPage(pageIndex + 1)} icon={ChevronRightIcon} />
        <ToolButton label={TABLE_TEXTS.goToLastPage} disabled={ahead} onClick={() => onPage(lastPage)} icon={LastPageIcon} />
      </Box>
    </Box>
  );
});
