import { Paper, Typography } from '@mui/material';
import { UI } from '../texts';

/** A screen that is not built yet: its name and 'u izradi'. */
export function UnderConstructionPage({ title }: { title: string }) {
  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{UI.underConstruction}</Typography>
    </Paper>
  );
}
