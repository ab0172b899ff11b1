import { Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { GroupTypesTable } from '../types/GroupTypesTable';

type Section = { key: string; label: string; content: () => ReactNode };

function Later() {
  return (
    <Paper sx={{ p: 3 }}>
      <Typography color="text.secondary">{UI.underConstruction}</Typography>
    </Paper>
  );
}

/**
 * /app/sifrarnici (spec 2 §5): one tab per codebook. Group types are here; priorities and
 * settlements plug in as their own sections when they are built.
 */
const SECTIONS: Section[] = [
  { key: 'tipovi', label: UI.tabGroupTypes, content: () => <GroupTypesTable /> },
  { key: 'prioriteti', label: UI.tabPriorities, content: () => <Later /> },
  { key: 'naselja', label: UI.tabSettlements, content: () => <Later /> },
];

export function CodebooksPage() {
  const [current, setCurrent] = useState(SECTIONS[0]?.key ?? '');
  const section = SECTIONS.find((s) => s.key === current) ?? SECTIONS[0];
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.codebooks}</Typography>
      <Tabs value={current} onChange={(_, v: string) => setCurrent(v)} aria-label={SCREEN_TITLES.codebooks}>
        {SECTIONS.map((s) => (
          <Tab key={s.key} value={s.key} label={s.label} />
        ))}
      </Tabs>
      {section?.content()}
    </Stack>
  );
}
