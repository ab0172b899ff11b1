import { Table, TableBody, TableCell, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

/** A two-column table of a record's fields: name, value. */
export function DetailRows({ label, rows }: { label: string; rows: [string, ReactNode][] }) {
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(([name, value]) => (
          <TableRow key={name}>
            <TableCell component="th" scope="row" sx={{ fontWeight: 700, width: 240 }}>
              {name}
            </TableCell>
            <TableCell>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
