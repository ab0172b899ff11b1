import { Autocomplete, Box, Stack, TextField, Typography } from '@mui/material';
import { DATA_KEYS } from '@trasa/domain';
import { useState } from 'react';
import type { ActivityDto } from '../../../api/activities';
import { metres } from '../../../components/units';
import { COMMON } from '../../../messages';
import { AutoNumberField } from '../fields';
import { FileUpload, SlotFiles } from '../files';
import { ACTIVITY_LABELS } from '../labels';
import { slotFiles } from '../model';
import { Block } from './common';

type Settlement = ActivityDto['lokacija']['naselja'][number];

/**
 * A1: one file per settlement of the cluster. The settlement is chosen by name first (the picker is
 * disabled until then); each settlement also records the route length in metres (DuzinaTrase, ref =
 * the settlement's id, naziv = its name), saved automatically.
 */
export function A1Section({ activity }: { activity: ActivityDto }) {
  const settlements = activity.lokacija.naselja;
  const [chosen, setChosen] = useState<Settlement | null>(null);
  return (
    <>
      <Block title={ACTIVITY_LABELS.settlementFile}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ xs: 'stretch', sm: 'center' }}>
          <Autocomplete
            options={settlements}
            value={chosen}
            onChange={(_, s) => setChosen(s)}
            getOptionLabel={(s) => s.naziv}
            getOptionKey={(s) => s._id}
            isOptionEqualToValue={(a, b) => a._id === b._id}
            noOptionsText={COMMON.emptyTable}
            sx={{ width: { xs: '100%', sm: 320 } }}
            renderInput={(params) => <TextField {...params} label={ACTIVITY_LABELS.settlement} name="naselje" />}
          />
          <FileUpload
            activity={activity}
            isRequired
            userInput={chosen?._id}
            multiple={false}
            disabled={!chosen}
            ariaLabel={ACTIVITY_LABELS.settlementFile}
          />
        </Stack>
        {!chosen && (
          <Typography variant="body2" color="text.secondary">
            {ACTIVITY_LABELS.chooseSettlement}
          </Typography>
        )}
      </Block>
      <Block title={ACTIVITY_LABELS.settlements}>
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={ACTIVITY_LABELS.settlements}>
          {settlements.map((s) => (
            <Box component="li" key={s._id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 1, md: 2 }} alignItems={{ xs: 'stretch', md: 'center' }}>
                <Typography sx={{ fontWeight: 700, width: { md: 200 }, flexShrink: 0 }}>{s.naziv}</Typography>
                <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                  <SlotFiles activity={activity} files={slotFiles(activity, s._id)} emptyText={ACTIVITY_LABELS.missing} />
                </Box>
                <AutoNumberField
                  activity={activity}
                  dataKey={DATA_KEYS.routeLength}
                  itemRef={s._id}
                  naziv={s.naziv}
                  label={ACTIVITY_LABELS.routeLength}
                  ariaLabel={`${ACTIVITY_LABELS.routeLength}: ${s.naziv}`}
                  unit={metres()}
                  compact
                />
              </Stack>
            </Box>
          ))}
        </Stack>
      </Block>
    </>
  );
}
