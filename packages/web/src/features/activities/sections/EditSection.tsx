import { Alert, Divider, Paper, Stack, Typography } from '@mui/material';
import { catalogueEntry } from '@trasa/domain';
import type { ReactNode } from 'react';
import type { ActivityDto } from '../../../api/activities';
import { ACTIVITIES } from '../../../messages';
import { ACTIVITY_LABELS } from '../labels';
import { A1Section } from './A1Section';
import { A7Section } from './A7Section';
import { A20Section } from './A20Section';
import { A61Section } from './A61Section';
import { ExtraFiles, RequiredFiles } from './common';
import {
  A3Section,
  A9Section,
  A17Section,
  A51Section,
  A101Section,
  DateRevisedSection,
  DateSection,
  NumberFilesSection,
} from './DataSections';
import { ExtraFees } from './ExtraFees';

/** The part of the edit section that depends on the code (spec 3 §2.1 table; activity-catalogue.md). */
function CodeSection({ activity }: { activity: ActivityDto }): ReactNode {
  switch (activity.kratakNaziv) {
    case 'A1':
      return <A1Section activity={activity} />;
    case 'A2':
    case 'A5':
      return <DateRevisedSection activity={activity} />;
    case 'A10':
    case 'A12':
    case 'A13':
    case 'A18':
    case 'A25':
      return <DateSection activity={activity} />;
    case 'A3':
      return <A3Section activity={activity} />;
    case 'A7':
      return <A7Section activity={activity} />;
    case 'A9':
      return <A9Section activity={activity} />;
    case 'A17':
      return <A17Section activity={activity} />;
    case 'A20':
      return <A20Section activity={activity} />;
    case 'A26.1':
    case 'A27.1':
      return <NumberFilesSection activity={activity} />;
    case 'A5.1':
      return <A51Section activity={activity} />;
    case 'A10.1':
      return <A101Section activity={activity} />;
    case 'A6.1':
      return <A61Section activity={activity} />;
    default:
      // Files-only steps and the controls' remarks: the generic data form (a date) and the documents.
      return (
        <>
          <DateSection activity={activity} />
          {(activity.brojFajlova > 0 || activity.kontrolna) && <RequiredFiles activity={activity} />}
        </>
      );
  }
}

/**
 * The edit section, shown only to who may change the activity while it is in progress: the code's
 * own part, the additional fees and the extra optional files. An unknown code: 'Nepoznat korak'.
 */
export function EditSection({ activity }: { activity: ActivityDto }) {
  const known = !!catalogueEntry(activity.kratakNaziv);
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.edit} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.edit}
      </Typography>
      {known ? (
        <Stack spacing={3} divider={<Divider flexItem />}>
          <Stack spacing={3}>
            <CodeSection activity={activity} />
          </Stack>
          <ExtraFees activity={activity} />
          <ExtraFiles activity={activity} />
        </Stack>
      ) : (
        <Alert severity="warning">{ACTIVITIES.unknownStep}</Alert>
      )}
    </Paper>
  );
}
