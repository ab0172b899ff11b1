import { Box, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { InventoryCheckTab } from './InventoryCheckTab';
import { InventoryContractsTab } from './InventoryContractsTab';
import { InventoryGuard } from './InventoryGuard';
import { InventoryReportsTab } from './InventoryReportsTab';
import { InventoryTypesTab } from './InventoryTypesTab';
import { INV_LABELS } from './labels';
import { SchoolNotificationsTab } from './SchoolNotificationsTab';

const TABS = ['ugovori', 'sifarnik', 'izvestaji', 'skole', 'provera'] as const;
export type InventoryTab = (typeof TABS)[number];

const TAB_LABELS: Record<InventoryTab, string> = {
  ugovori: INV_LABELS.tabContracts,
  sifarnik: INV_LABELS.tabTypes,
  izvestaji: INV_LABELS.tabReports,
  skole: INV_LABELS.tabSchools,
  provera: INV_LABELS.tabCheck,
};

function tabOf(value: string | null): InventoryTab {
  return (TABS as readonly string[]).includes(value ?? '') ? (value as InventoryTab) : 'ugovori';
}

/**
 * /app/inventar (spec 3 §2.10): five tabs — inventory contracts, the equipment codebook, the inventory
 * reports, the notified schools and the inventory check. The open tab is in the address (?tab=), so a
 * back link from a contract's locations returns to it.
 */
function InventoryPageScreen() {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.inventory}</Typography>
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={tab}
          onChange={(_, v: InventoryTab) => setParams(v === 'ugovori' ? {} : { tab: v }, { replace: true })}
          aria-label={INV_LABELS.tabsLabel}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map((t) => (
            <Tab key={t} value={t} label={TAB_LABELS[t]} />
          ))}
        </Tabs>
      </Box>
      {tab === 'ugovori' && <InventoryContractsTab />}
      {tab === 'sifarnik' && <InventoryTypesTab />}
      {tab === 'izvestaji' && <InventoryReportsTab />}
      {tab === 'skole' && <SchoolNotificationsTab />}
      {tab === 'provera' && <InventoryCheckTab />}
    </Stack>
  );
}

/** The screen behind the inventory guard. */
export function InventoryPage() {
  return (
    <InventoryGuard>
      <InventoryPageScreen />
    </InventoryGuard>
  );
}
