import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { appPath } from '@trasa/domain';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { getUser } from '../../api/users';
import { DetailRows } from '../../components/DetailRows';
import { useCameFromList } from '../../components/fromList';
import { PageLoader } from '../../components/PageLoader';
import { USERS } from '../../messages';
import { USERS_KEY } from '../../queries/users';
import { groupTypeName, roleName } from '../../shipped';
import { UI } from '../../texts';
import { statusLabel } from './userColumns';

/** /app/korisnici/{id}: the user and their group; reachable only from the list (spec 1 §2.7). */
export function UserDetailsPage() {
  const fromList = useCameFromList();
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: [...USERS_KEY, 'single', id],
    queryFn: ({ signal }) => getUser(id, signal),
    enabled: fromList && !!id,
    retry: false,
  });

  if (!fromList) return <Navigate to={appPath('users')} replace />;

  const back = (
    <Button component={RouterLink} to={appPath('users')} startIcon={<ArrowBackIcon />}>
      {UI.back}
    </Button>
  );
  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    return (
      <Stack spacing={2} alignItems="flex-start">
        {back}
        <Alert severity="error">{USERS.loadFailed}</Alert>
      </Stack>
    );
  }
  const { user, group } = query.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        {back}
        <Typography variant="h1">
          {user.ime} {user.prezime}
        </Typography>
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h3" component="h2" gutterBottom>
          {UI.userDetailsTitle}
        </Typography>
        <DetailRows
          label={UI.userDetailsTitle}
          rows={[
            [UI.ime, user.ime],
            [UI.prezime, user.prezime],
            [UI.email, user.email],
            [UI.emailPotvrdjen, user.emailPotvrdjen ? UI.yes : UI.no],
            [UI.role, roleName(user.rolaNaziv || user.rola)],
            [UI.status, statusLabel(user.status)],
          ]}
        />
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h3" component="h2" gutterBottom>
          {UI.userGroupTitle}
        </Typography>
        {group ? (
          <DetailRows
            label={UI.userGroupTitle}
            rows={[
              [UI.naziv, group.naziv],
              [UI.kratakNaziv, group.kratakNaziv],
              [UI.tip, group.tip ? groupTypeName(group.tip) : UI.empty],
              [UI.parentGroup, group.nadredjenaGrupa?.naziv ?? UI.none],
              [UI.seesAll, group.sveVideci ? UI.yes : UI.no],
            ]}
          />
        ) : (
          <Typography color="text.secondary">{UI.userWithoutGroup}</Typography>
        )}
      </Paper>
    </Stack>
  );
}
