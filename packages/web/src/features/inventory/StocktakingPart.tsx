import { Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { StocktakingRow } from '@trasa/domain';
import { COMMON } from '../../messages';
import { UI } from '../../texts';
import { formatAmount, formatKolicina, handoverDate } from './format';
import { INV_LABELS } from './labels';

/**
 * One part of a stocktaking list (Materijal, Oprema or Radovi) as a plain table; a planned row (handover
 * after today) reads 'Планирано за DD.MM.YYYY' in its date cell.
 */
const COLUMNS = {
  redniBroj: INV_LABELS.redniBroj,
  sifra: INV_LABELS.sifra,
  naziv: INV_LABELS.naziv,
  kolicina: INV_LABELS.kolicina,
  cenaRsd: INV_LABELS.cenaRsd,
  vrednost: INV_LABELS.vrednost,
  datumPrimopredaje: INV_LABELS.datumPrimopredaje,
};

type Props = {
  label: string;
  rows: readonly StocktakingRow[];
  /** The public page's Latin column names (the school reads the mail in Latin). */
  latin?: boolean;
};

export function StocktakingPart({ label, rows, latin = false }: Props) {
  const c = latin ? INV_LABELS.publicColumns : COLUMNS;
  return (
    <Box component="section" aria-label={label}>
      <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell>{c.redniBroj}</TableCell>
              <TableCell>{c.sifra}</TableCell>
              <TableCell>{c.naziv}</TableCell>
              <TableCell align="right">{c.kolicina}</TableCell>
              <TableCell align="right">{c.cenaRsd}</TableCell>
              <TableCell align="right">{c.vrednost}</TableCell>
              <TableCell>{c.datumPrimopredaje}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r, i) => (
              <TableRow key={`${r._id}-${r.planirano === true}`} sx={r.planirano ? { '& td': { fontStyle: 'italic' } } : undefined}>
                <TableCell>{r.redniBroj ?? i + 1}</TableCell>
                <TableCell>{r.sifra || UI.empty}</TableCell>
                <TableCell>{r.naziv}</TableCell>
                <TableCell align="right">{formatKolicina(r.kolicina, r.jedinica)}</TableCell>
                <TableCell align="right">{formatAmount(r.cenaRsd)}</TableCell>
                <TableCell align="right">{formatAmount(r.ukupnoRsd)}</TableCell>
                <TableCell>{handoverDate(r.datumPrimopredaje, r.planirano === true)}</TableCell>
              </TableRow>
            ))}
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>{latin ? INV_LABELS.publicEmpty : COMMON.emptyTable}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
