import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Box, Button, Checkbox, FormControlLabel, IconButton } from '@mui/material';
import { memo } from 'react';
import { TABLE_TEXTS } from '../tableTexts';
import { PopoverButton } from './PopoverButton';
import type { Visibility } from './types';

type ColumnsChoiceProps = {
  columns: readonly { id: string; header: string; canHide: boolean }[];
  visibility: Visibility;
  onVisibility: (next: Visibility) => void;
  onOrder: (next: string[] | null) => void;
  reordered: boolean;
};

/**
 * 'Прикажи/сакриј колоне': a checkbox per column in the table's order, buttons that move a column up or
 * down the order (left or right in the table), 'Прикажи све', 'Сакриј све' and 'Ресетуј поредак'. Every
 * control is a plain button or checkbox, reached by Tab; Escape closes the panel.
 */
export const ColumnsChoice = memo(function ColumnsChoice({ columns, visibility, onVisibility, onOrder, reordered }: ColumnsChoiceProps) {
  const ids = columns.map((c) => c.id);
  const setAll = (shown: boolean) =>
    onVisibility({ ...visibility, ...Object.fromEntries(columns.filter((c) => c.canHide).map((c) => [c.id, shown])) });
  const move = (index: number, by: -1 | 1) => {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    if (moved === undefined) return;
    next.splice(index + by, 0, moved);
    onOrder(next);
  };
  return (
    <PopoverButton
      label={TABLE_TEXTS.showHideColumns}
      icon={ViewColumnIcon}
      kind="dialog"
      tip
      paperSx={{ p: 1, maxWidth: 'calc(100vw - 16px)' }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, pb: 0.5 }}>
        <Button size="small" disabled={columns.every((c) => visibility[c.id] === false || !c.canHide)} onClick={() => setAll(false)}>
          {TABLE_TEXTS.hideAll}
        </Button>
        <Button size="small" disabled={!reordered} onClick={() => onOrder(null)}>
          {TABLE_TEXTS.resetOrder}
        </Button>
        <Button size="small" disabled={columns.every((c) => visibility[c.id] !== false)} onClick={() => setAll(true)}>
          {TABLE_TEXTS.showAll}
        </Button>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {columns.map((c, index) => (
          <Box component="li" key={c.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <IconButton
              size="small"
              aria-label={`${TABLE_TEXTS.moveUp}: ${c.header}`}
              disabled={index === 0}
              onClick={() => move(index, -1)}
            >
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`${TABLE_TEXTS.moveDown}: ${c.header}`}
              disabled={index === columns.length - 1}
              onClick={() => move(index, 1)}
            >
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
            <FormControlLabel
              sx={{ ml: 0.5, mr: 1, flex: '1 1 auto' }}
              label={c.header}
              control={
                <Checkbox
                  size="small"
                  checked={visibility[c.id] !== false}
                  disabled={!c.canHide}
                  onChange={(e) => onVisibility({ ...visibility, [c.id]: e.target.checked })}
                />
              }
            />
          </Box>
        ))}
      </Box>
    </PopoverButton>
  );
});
