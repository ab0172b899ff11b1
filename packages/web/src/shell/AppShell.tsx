import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { AppBar, Box, Button, Drawer, IconButton, Link, Paper, Toolbar, Typography, useMediaQuery } from '@mui/material';
import { GROUP_TYPE_CODES, type GroupTypeCode } from '@trasa/domain';
import { lazy, type ReactNode, Suspense, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DialogGuard } from '../components/DialogGuard';
import { SHARED } from '../components/sharedTexts';
import { menuFor } from '../messages';
import { QUEUE_TEXTS } from '../offline/texts';
import { endLightFrame } from '../public/LightFrame';
import { UI } from '../texts';
import { SPEC_BLUE, TEXT_BLUE } from '../theme';
import { ScriptSwitch, useProfileScript } from './ScriptSwitch';
import { SideMenu } from './SideMenu';
import { onSessionEnd, useCurrentUser, useLogout } from './session';

const WIDE = 260;
const MINI = 64;
const MAIN_ID = 'glavni-sadrzaj';
/**
 * How long after a navigation the new screen's title is announced: after the focus moved (read first), and
 * in time for a screen that names itself once loaded.
 */
const ANNOUNCE_AFTER_MS = 300;
/** Read by screen readers, not shown. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  p: 0,
  m: '-1px',
} as const;
/** Large text (≥ 18.66 px bold): white on spec 1 §9's blue passes there (3:1), see theme.ts. */
const LARGE = { fontSize: '1.2rem', fontWeight: 700 } as const;

function groupTypeCode(code: string | null | undefined): GroupTypeCode | null {
  return GROUP_TYPE_CODES.find((c) => c === code) ?? null;
}

/** The changes kept on the device without signal (offline/queue.ts): run and shown in the bar, loaded after the shell. */
const QueueBar = lazy(async () => ({ default: (await import('../offline/QueueStatus')).QueueBar }));
const queueModule = () => import('../offline/queue');

/**
 * Top bar and side menu (spec 1 §2.3), absent for guests. Wide screens keep a rail that folds to icons;
 * under 550 px the menu is a temporary drawer over the page (Escape closes it, Tab stays inside). A skip
 * link leads past the bar and the menu to the screen.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  useProfileScript(user);
  const logout = useLogout();
  const [leaving, setLeaving] = useState(false);
  // Changes kept on the device without signal: sent when the network returns, shown in the bar; signing
  // out removes them, and asks first while there are some.
  useEffect(() => onSessionEnd(async () => (await queueModule()).clearQueue()), []);
  const [unsent, setUnsent] = useState(0);
  const leave = () => {
    setUnsent(0);
    setLeaving(true);
    void logout();
  };
  const askLeave = async () => {
    const kept = (await queueModule()).getQueueState().items.length;
    if (kept > 0) setUnsent(kept);
    else leave();
  };
  const items = menuFor(user.rola, groupTypeCode(user.grupa?.tipKod));
  const hasMenu = items.length > 0;
  const narrow = useMediaQuery('(max-width:549.95px)', { noSsr: true });
  // The wide screen's rail (open or folded) and the phone's drawer keep their own state: with one shared
  // state the drawer was drawn open for a moment when a window narrowed past 550 px with the rail open,
  // and its modal left the whole application aria-hidden behind it.
  const [railOpen, setRailOpen] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const open = narrow ? drawerOpen : railOpen;
  const setOpen = narrow ? setDrawerOpen : setRailOpen;
  const menuId = useId();
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // A drawer left open closes when the window widens (the rail shows instead).
  useEffect(() => {
    if (!narrow) setDrawerOpen(false);
  }, [narrow]);

  // The entry's drawing of this bar goes in the commit that shows the bar itself (main.tsx, LightFrame).
  useLayoutEffect(() => endLightFrame(), []);

  // A new screen starts at its top (the main area scrolls, not the window). Not on the first screen, which
  // is at its top already: scrolling there measured the whole new page's layout inside the first commit's
  // task (issue 13 item 3, TBT), instead of in the browser's next frame.
  // A new screen is also announced by its title (a live region: the page's load announces the first), and
  // focus that went with the old screen (a row opened by Enter, a 'Назад' link) goes to the new screen's
  // start, so Tab goes on from there; a list focuses the row one came back from (DataTable).
  const scrolledFor = useRef(pathname);
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    if (scrolledFor.current === pathname) return;
    scrolledFor.current = pathname;
    mainRef.current?.scrollTo?.({ top: 0 });
    const active = document.activeElement;
    if (!active || active === document.body) mainRef.current?.focus({ preventScroll: true });
    setAnnounced('');
    const timer = window.setTimeout(() => setAnnounced(document.title), ANNOUNCE_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [pathname]);

  const width = open ? WIDE : MINI;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100dvh' }}>
      <Link
        href={`#${MAIN_ID}`}
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
        sx={{
          position: 'absolute',
          left: 8,
          top: -64,
          zIndex: (t) => t.zIndex.tooltip + 1,
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          fontWeight: 700,
          borderRadius: 1,
          boxShadow: 3,
          '&:focus': { top: 8, outline: '3px solid', outlineColor: 'primary.dark' },
        }}
      >
        {SHARED.skipToContent}
      </Link>
      {/* On a phone the bar is an app bar of one row (≤ 64 px): the ministry's name on two lines at most,
          the greeting on one, 'Крај рада' as its icon (named by it); public/LightFrame.tsx draws the same. */}
      <AppBar position="static" elevation={2} sx={{ bgcolor: { xs: TEXT_BLUE, sm: SPEC_BLUE } }}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 }, py: { xs: 0.5, sm: 1 }, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
          {hasMenu && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={UI.menuToggle}
              aria-expanded={open}
              aria-controls={narrow && !open ? undefined : menuId}
              onClick={() => setOpen((o) => !o)}
            >
              {open && !narrow ? <MenuOpenIcon /> : <MenuIcon />}
            </IconButton>
          )}
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              display: 'flex',
              flexDirection: { xs: 'column', sm: 'row' },
              alignItems: { xs: 'stretch', sm: 'center' },
              gap: { xs: 0, sm: 2 },
            }}
          >
            <Typography
              variant="h6"
              component="div"
              sx={{
                flex: { sm: 1 },
                lineHeight: { xs: 1.2, sm: 1.3 },
                fontWeight: 700,
                fontSize: { xs: '0.875rem', sm: LARGE.fontSize },
                display: { xs: '-webkit-box', sm: 'block' },
                WebkitLineClamp: { xs: 2 },
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
              }}
            >
              {UI.ministry}
            </Typography>
            <Typography
              component="p"
              sx={{
                fontSize: { xs: '0.75rem', sm: LARGE.fontSize },
                lineHeight: { xs: 1.3, sm: 1.5 },
                fontWeight: { sm: LARGE.fontWeight },
                whiteSpace: { xs: 'nowrap', sm: 'normal' },
                overflow: { xs: 'hidden', sm: 'visible' },
                textOverflow: { xs: 'ellipsis' },
              }}
            >
              {UI.greeting}, {user.ime} {user.prezime}
            </Typography>
          </Box>
          <Suspense fallback={null}>
            <QueueBar userId={user._id} />
          </Suspense>
          <ScriptSwitch compact />
          {narrow ? (
            <IconButton
              color="inherit"
              edge="end"
              aria-label={UI.endWork}
              data-tip={UI.endWork}
              disabled={leaving}
              onClick={() => void askLeave()}
            >
              <LogoutIcon />
            </IconButton>
          ) : (
            <Button
              variant="contained"
              size="small"
              startIcon={<LogoutIcon />}
              disabled={leaving}
              onClick={() => void askLeave()}
              sx={{
                flexShrink: 0,
                whiteSpace: 'nowrap',
                bgcolor: 'common.white',
                color: TEXT_BLUE,
                '&:hover': { bgcolor: 'grey.100' },
              }}
            >
              {UI.endWork}
            </Button>
          )}
        </Toolbar>
      </AppBar>
      <Box aria-live="polite" aria-atomic="true" sx={VISUALLY_HIDDEN}>
        {announced}
      </Box>
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0, position: 'relative' }}>
        {hasMenu && narrow && (
          <Drawer
            variant="temporary"
            open={open}
            onClose={() => setOpen(false)}
            slotProps={{ paper: { id: menuId, sx: { width: Math.min(WIDE, 320) } } }}
          >
            <SideMenu items={items} collapsed={false} onNavigate={() => setOpen(false)} />
          </Drawer>
        )}
        {hasMenu && !narrow && (
          <Box sx={{ width, flexShrink: 0, position: 'relative', transition: 'width 150ms' }}>
            <Paper
              id={menuId}
              square
              elevation={0}
              sx={{
                position: 'relative',
                height: '100%',
                width,
                overflowX: 'hidden',
                overflowY: 'auto',
                borderRight: 1,
                borderColor: 'divider',
                transition: 'width 150ms',
              }}
            >
              <SideMenu items={items} collapsed={!open} />
            </Paper>
          </Box>
        )}
        <Box
          component="main"
          id={MAIN_ID}
          ref={mainRef}
          tabIndex={-1}
          // The address whose screen the main area shows, set in the commit that shows it: after a navigation
          // the old screen stays until then (a journey waits for this before it reads the new one).
          data-path={pathname}
          // The scroll bar's place is kept: a screen growing taller than the window (a list's rows, the
          // charts) no longer narrows it when the bar appears, re-wrapping its text (layout shift).
          sx={{
            flex: 1,
            minWidth: 0,
            overflow: 'auto',
            scrollbarGutter: 'stable',
            p: { xs: 1, sm: 3 },
            bgcolor: 'grey.50',
            '&:focus': { outline: 'none' },
          }}
        >
          {children}
        </Box>
      </Box>
      <DialogGuard />
      <ConfirmDialog
        open={unsent > 0}
        title={QUEUE_TEXTS.signOutTitle}
        text={QUEUE_TEXTS.signOutNote(unsent)}
        confirmLabel={QUEUE_TEXTS.signOut}
        cancelLabel={UI.cancel}
        onConfirm={leave}
        onClose={() => setUnsent(0)}
      />
    </Box>
  );
}
