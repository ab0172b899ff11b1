import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { ActivityDto } from '../../../api/activities';
import { catalogueText } from '../../../shipped';
import { FileUpload } from '../files';
import { ACTIVITY_LABELS } from '../labels';

/** A titled part of the edit section. */
export function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        {title}
      </Typography>
      <Stack spacing={1.5}>{children}</Stack>
    </Box>
  );
}

/**
 * The activity's required documents (they count for the finish rule): several at once. `disabledHint`
 * says what must be entered first (A10.1 the date, A26.1/A27.1 the number).
 */
export function RequiredFiles({
  activity,
  title = ACTIVITY_LABELS.requiredFiles,
  disabledHint,
}: {
  activity: ActivityDto;
  title?: string;
  /** When set, the picker is disabled and the hint shown. */
  disabledHint?: string | null;
}) {
  return (
    <Block title={title}>
      {activity.dokumenta && (
        <Typography variant="body2" color="text.secondary">
          {catalogueText(activity.dokumenta)}
        </Typography>
      )}
      <FileUpload activity={activity} isRequired disabled={!!disabledHint} label={ACTIVITY_LABELS.uploadFiles} ariaLabel={title} />
      {disabledHint && (
        <Typography variant="body2" color="warning.dark">
          {disabledHint}
        </Typography>
      )}
    </Block>
  );
}

/** Extra optional documents of a responsible party (isRequiredFile false): they never count for the rules. */
export function ExtraFiles({ activity }: { activity: ActivityDto }) {
  return (
    <Block title={ACTIVITY_LABELS.extraFiles}>
      <FileUpload activity={activity} isRequired={false} label={ACTIVITY_LABELS.uploadFiles} ariaLabel={ACTIVITY_LABELS.extraFiles} />
    </Block>
  );
}
