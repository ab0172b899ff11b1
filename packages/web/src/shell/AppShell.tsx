import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { AppBar, Backdrop, Box, Button, IconButton, Paper, Toolbar, Typography, useMediaQuery } from '@mui/material';
import { GROUP_TYPE_CODES, type GroupTypeCode, menuFor } from '@trasa/domain';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { UI } from '../texts';
import { SideMenu } from './SideMenu';
import { useCurrentUser, useEndSession } from './session';

const WIDE = 260;
const MINI = 64;

function groupTypeCode(code: string | null | undefined): GroupTypeCode | null {
  return GROUP_TYPE_CODES.find((c) => c === code) ?? null;
}

/** Top bar and collapsible side menu (spec 1 §2.3); the menu collapses under 550 px and is absent for guests. */
export function AppShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const endSession = useEndSession();
  const items = menuFor(user.rola, groupTypeCode(user.grupa?.tipKod));
  const hasMenu = items.length > 0;
  const narrow = useMediaQuery('(max-width:549.95px)', { noSsr: true });
  const [open, setOpen] = useState(!narrow);
  const menuId = useId();

  useEffect(() => {
    setOpen(!narrow);
  }, [narrow]);

  const width = open ? WIDE : MINI;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
      <AppBar position="static" elevation={2}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 }, py: 1 }}>
          {hasMenu && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={UI.menuToggle}
              aria-expanded={open}
              aria-controls={menuId}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? <MenuOpenIcon /> : <MenuIcon />}
            </IconButton>
          )}
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              display: 'flex',
              flexDirection: { xs: 'column', sm: 'row' },
              alignItems: { xs: 'flex-start', sm: 'center' },
              gap: { xs: 0.25, sm: 2 },
            }}
          >
            <Typography
              variant="h6"
              component="div"
              sx={{ flex: { sm: 1 }, lineHeight: 1.3, fontWeight: 700, fontSize: { xs: '0.95rem', sm: '1.15rem' } }}
            >
              {UI.ministry}
            </Typography>
            <Typography component="p" sx={{ fontSize: { xs: '0.85rem', sm: '1rem' } }}>
              {UI.greeting}, {user.ime} {user.prezime}
            </Typography>
          </Box>
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            startIcon={<LogoutIcon />}
            onClick={endSession}
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {UI.endWork}
          </Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0, position: 'relative' }}>
        {hasMenu && (
          <Box sx={{ width: narrow ? MINI : width, flexShrink: 0, position: 'relative', transition: 'width 150ms' }}>
            <Paper
              id={menuId}
              square
              elevation={narrow && open ? 8 : 0}
              sx={{
                position: narrow ? 'absolute' : 'relative',
                inset: 0,
                right: 'auto',
                height: '100%',
                width,
                zIndex: (t) => t.zIndex.drawer,
                overflowX: 'hidden',
                overflowY: 'auto',
                borderRight: 1,
                borderColor: 'divider',
                transition: 'width 150ms',
              }}
            >
              <SideMenu items={items} collapsed={!open} onNavigate={narrow ? () => setOpen(false) : undefined} />
            </Paper>
          </Box>
        )}
        {hasMenu && narrow && (
          <Backdrop open={open} onClick={() => setOpen(false)} sx={{ position: 'absolute', zIndex: (t) => t.zIndex.drawer - 1 }} />
        )}
        <Box component="main" sx={{ flex: 1, minWidth: 0, overflow: 'auto', p: { xs: 1.5, sm: 3 }, bgcolor: 'grey.50' }}>
          {children}
        </Box>
      </Box>
    </Box>
  );
}
