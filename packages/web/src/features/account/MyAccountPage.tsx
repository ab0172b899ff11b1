import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Box,
  Button,
  Divider,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { appPath, canOpen, landingPath } from '@trasa/domain';
import { Link as RouterLink } from 'react-router';
import { useFirstContentMark } from '../../components/firstContent';
import { ScriptSwitch } from '../../shell/ScriptSwitch';
import { useCurrentUser } from '../../shell/session';
import { groupTypeName, roleName } from '../../shipped';
import { UI } from '../../texts';
import { ChangeInfoForm } from './ChangeInfoForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { DeleteAccountButton } from './DeleteAccountButton';
import { LogoutAllButton } from './LogoutAllButton';

/** /app/moj-nalog (spec 1 §2.5): the user's data, its edit form, the password change and account deletion. */
export function MyAccountPage() {
  const user = useCurrentUser();
  // The spec's back target is /app/klasteri-user/{locationId}; with no location here, the list (or the landing page).
  const back = canOpen(user.rola, 'myClusters') ? appPath('myClusters') : landingPath(user.rola);
  const rows: [string, string][] = [
    [UI.ime, user.ime],
    [UI.prezime, user.prezime],
    [UI.email, user.email],
    [UI.role, roleName(user.rolaNaziv || user.rola)],
    [UI.group, user.grupa?.naziv || UI.empty],
    [UI.groupType, user.grupa?.tip ? groupTypeName(user.grupa.tip) : UI.empty],
  ];
  useFirstContentMark(true);

  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={back} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{UI.myAccountTitle}</Typography>
      </Stack>

      <Paper component="section" aria-labelledby="script-heading" sx={{ p: 2 }}>
        <Typography id="script-heading" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
          {UI.script}
        </Typography>
        <ScriptSwitch />
      </Paper>

      <TableContainer component={Paper}>
        <Table aria-label={UI.myAccountTitle} size="small">
          <TableHead>
            <TableRow>
              {rows.map(([label]) => (
                <TableCell key={label} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              {rows.map(([label, value]) => (
                <TableCell key={label}>{value}</TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>

      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <ChangeInfoForm user={user} />
          <ChangePasswordForm />
        </Box>
        <Divider sx={{ my: 3 }} />
        <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
          <LogoutAllButton />
          <DeleteAccountButton />
        </Stack>
      </Paper>
    </Stack>
  );
}
