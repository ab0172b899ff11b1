import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { Alert, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { appPath } from '@trasa/domain';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { getGroup } from '../../api/groups';
import { DetailRows } from '../../components/DetailRows';
import { FROM_LIST, useCameFromList } from '../../components/fromList';
import { PageLoader } from '../../components/PageLoader';
import { USERS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { groupTypeName } from '../../shipped';
import { UI } from '../../texts';
import { groupDetailsPath, groupMembersPath } from './groupLinks';

function GroupLink({ group }: { group: { _id: string; naziv: string } }) {
  return (
    <Link component={RouterLink} to={groupDetailsPath(group)} state={FROM_LIST}>
      {group.naziv}
    </Link>
  );
}

/** /app/grupa/{id} (spec 1 §2.8): the group, its parent, children and member count; reachable only from the list. */
export function GroupDetailsPage() {
  const fromList = useCameFromList();
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: [...GROUPS_KEY, 'single', id],
    queryFn: ({ signal }) => getGroup(id, signal),
    enabled: fromList && !!id,
    retry: false,
  });

  if (!fromList) return <Navigate to={appPath('groups')} replace />;

  const back = (
    <Button component={RouterLink} to={appPath('groups')} startIcon={<ArrowBackIcon />}>
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
  const group = query.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        {back}
        <Typography variant="h1">{group.naziv}</Typography>
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h3" component="h2" gutterBottom>
          {UI.groupDetailsTitle}
        </Typography>
        <DetailRows
          label={UI.groupDetailsTitle}
          rows={[
            [UI.naziv, group.naziv],
            [UI.cirilica, group.cirilica || UI.empty],
            [UI.kratakNaziv, group.kratakNaziv],
            [UI.tip, group.tip ? groupTypeName(group.tip) : UI.empty],
            [UI.seesAllLong, group.sveVideci ? UI.yes : UI.no],
            [UI.parentGroup, group.nadredjenaGrupa ? <GroupLink key="parent" group={group.nadredjenaGrupa} /> : UI.none],
            [
              UI.childGroups,
              group.podredjeneGrupe.length > 0 ? (
                <Stack key="children" component="ul" spacing={0.5} sx={{ m: 0, pl: 2 }}>
                  {group.podredjeneGrupe.map((child) => (
                    <li key={child._id}>
                      <GroupLink group={child} />
                    </li>
                  ))}
                </Stack>
              ) : (
                UI.none
              ),
            ],
            [UI.memberCount, String(group.brojClanova)],
          ]}
        />
      </Paper>
      <Stack direction="row">
        <Button
          variant="contained"
          startIcon={<ManageAccountsIcon />}
          component={RouterLink}
          to={groupMembersPath(group)}
          state={FROM_LIST}
        >
          {UI.manageGroupUsers}
        </Button>
      </Stack>
    </Stack>
  );
}
