import { Box, Stack, Typography } from '@mui/material';
import type { ActivityDto } from '../../../api/activities';
import { testTypeNames } from '../../../shipped';
import { FileUpload, SlotFiles } from '../files';
import { ACTIVITY_LABELS } from '../labels';
import { slotFiles } from '../model';
import { Block } from './common';

/** A20: the five named test types, each with its own file (userInput = 1–5). */
export function A20Section({ activity }: { activity: ActivityDto }) {
  return (
    <Block title={ACTIVITY_LABELS.testTypes}>
      <Stack component="ol" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={ACTIVITY_LABELS.testTypes}>
        {testTypeNames().map((name, i) => {
          const slot = String(i + 1);
          const files = slotFiles(activity, slot);
          return (
            <Box component="li" key={slot} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 1, md: 2 }} alignItems={{ xs: 'stretch', md: 'center' }}>
                <Typography sx={{ fontWeight: 700, width: { md: 300 }, flexShrink: 0 }}>{`${slot}. ${name}`}</Typography>
                <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                  <SlotFiles activity={activity} files={files} emptyText={ACTIVITY_LABELS.missing} />
                </Box>
                <FileUpload
                  activity={activity}
                  isRequired
                  userInput={slot}
                  multiple={false}
                  compact
                  ariaLabel={`${ACTIVITY_LABELS.chooseFile}: ${name}`}
                />
              </Stack>
            </Box>
          );
        })}
      </Stack>
    </Block>
  );
}
