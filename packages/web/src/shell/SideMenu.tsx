import { Box, List, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import type { MenuItem } from '@trasa/domain';
import { NavLink, useLocation } from 'react-router';
import { UI } from '../texts';
import { MENU_ICONS } from './menuIcons';

/** The current item: /app only exactly, every other item also for the screens below it. */
export function isCurrent(item: MenuItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (item.path === '/app') return path === '/app';
  return path === item.path || path.startsWith(`${item.path}/`);
}

type Props = { items: MenuItem[]; collapsed: boolean; onNavigate?: () => void };

/** The side menu of spec 1 §2.3: links named by the item labels, the current one highlighted. */
export function SideMenu({ items, collapsed, onNavigate }: Props) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={UI.mainMenu}>
      <List disablePadding sx={{ py: 1 }}>
        {items.map((item) => {
          const Icon = MENU_ICONS[item.icon];
          const current = isCurrent(item, pathname);
          const link = (
            <ListItemButton
              component={NavLink}
              to={item.path}
              end={item.path === '/app'}
              selected={current}
              aria-current={current ? 'page' : undefined}
              aria-label={collapsed ? item.label : undefined}
              onClick={onNavigate}
              sx={{
                minHeight: 44,
                px: 2.5,
                '&.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText' },
                '&.Mui-selected:hover': { bgcolor: 'primary.dark' },
                '&.Mui-selected .MuiListItemIcon-root': { color: 'primary.contrastText' },
              }}
            >
              <ListItemIcon sx={{ minWidth: 0, mr: collapsed ? 0 : 2, color: current ? 'inherit' : 'primary.main' }}>
                <Icon />
              </ListItemIcon>
              {!collapsed && <ListItemText primary={item.label} slotProps={{ primary: { noWrap: true } }} />}
            </ListItemButton>
          );
          return (
            <Box component="li" key={item.key} sx={{ listStyle: 'none' }}>
              {collapsed ? (
                <Tooltip title={item.label} placement="right" describeChild>
                  {link}
                </Tooltip>
              ) : (
                link
              )}
            </Box>
          );
        })}
      </List>
    </nav>
  );
}
