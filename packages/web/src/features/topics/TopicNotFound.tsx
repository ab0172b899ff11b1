import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button, Stack, Typography } from '@mui/material';
import { appPath } from '@trasa/domain';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { TOPICS } from '../../messages';
import { UI } from '../../texts';

/**
 * A topic that could not be loaded: 'Није пронађено' (spec 2 §8; the server answers a missing, invisible
 * or malformed id alike), the failure itself only logged.
 */
export function TopicNotFound({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('loading the topic failed', error);
  }, [error]);
  return (
    <Stack spacing={2} alignItems="flex-start">
      <Button component={RouterLink} to={appPath('topics')} startIcon={<ArrowBackIcon />}>
        {UI.back}
      </Button>
      <Typography variant="h1">{TOPICS.notFound}</Typography>
    </Stack>
  );
}
