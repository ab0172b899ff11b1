import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { UI } from '../../texts';

/** The frame of the public pages: product name, ministry and a card with the page's form. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'grey.100',
      }}
    >
      <Typography variant="h1" sx={{ fontSize: '2.5rem', color: 'primary.main', mb: 0.5 }}>
        {UI.appName}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, textAlign: 'center' }}>
        {UI.ministry}
      </Typography>
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h2" sx={{ mb: 2.5 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
