import { Table, TableBody, TableCell, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

/** A two-column table of a record's fields: name, value; on phones the name stands above its value. */
export function DetailRows({ label, rows }: { label: string; rows: [string, ReactNode][] }) {
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(([name, value]) => (
          <TableRow key={name} sx={{ display: { xs: 'block', sm: 'table-row' } }}>
            <TableCell
              component="th"
              scope="row"
              sx={{
                fontWeight: 700,
                width: { xs: 'auto', sm: 240 },
                display: { xs: 'block', sm: 'table-cell' },
                borderBottom: { xs: 0, sm: 1 },
                borderColor: { sm: 'divider' },
                pb: { xs: 0, sm: 0.75 },
              }}
            >
              {name}
            </TableCell>
            <TableCell sx={{ display: { xs: 'block', sm: 'table-cell' }, overflowWrap: 'anywhere' }}>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
