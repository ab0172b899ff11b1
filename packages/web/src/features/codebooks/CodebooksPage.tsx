import { Stack, Tab, Tabs, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { PrioritiesTable } from '../priorities/PrioritiesTable';
import { SettlementsTable } from '../settlements/SettlementsTable';
import { GroupTypesTable } from '../types/GroupTypesTable';

type Section = { key: string; label: string; content: () => ReactNode };

/** /app/sifrarnici (spec 2 §5): one tab per codebook: group types, priorities, settlements. */
const SECTIONS: Section[] = [
  { key: 'tipovi', label: UI.tabGroupTypes, content: () => <GroupTypesTable /> },
  { key: 'prioriteti', label: UI.tabPriorities, content: () => <PrioritiesTable /> },
  { key: 'naselja', label: UI.tabSettlements, content: () => <SettlementsTable /> },
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
