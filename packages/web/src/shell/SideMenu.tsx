import type { MenuItem } from '@trasa/domain';
import { Link, useLocation } from 'react-router';
import { PlainIcon } from '../components/PlainIcon';
import { UI } from '../texts';
import { MENU_ICONS } from './menuIcons';
import './sideMenu.css';

/** The current item: /app only exactly, every other item also for the screens below it. */
export function isCurrent(item: MenuItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (item.path === '/app') return path === '/app';
  return path === item.path || path.startsWith(`${item.path}/`);
}

type Props = { items: MenuItem[]; collapsed: boolean; onNavigate?: () => void };

/**
 * The side menu of spec 1 §2.3: links named by the item labels, the current one highlighted. Plain links
 * styled once (sideMenu.css); folded to icons, each names itself (aria-label) and shows its label as a
 * tooltip on the right (the application's one tooltip, components/TipHost).
 */
export function SideMenu({ items, collapsed, onNavigate }: Props) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={UI.mainMenu}>
      <ul className="menu-list">
        {items.map((item) => {
          const current = isCurrent(item, pathname);
          return (
            <li key={item.key}>
              <Link
                to={item.path}
                className="menu-item"
                aria-current={current ? 'page' : undefined}
                aria-label={collapsed ? item.label : undefined}
                data-tip={collapsed ? item.label : undefined}
                data-tip-placement="right"
                onClick={onNavigate}
              >
                <span className={collapsed ? 'menu-icon' : 'menu-icon menu-icon-gap'}>
                  <PlainIcon icon={MENU_ICONS[item.icon]} size="medium" />
                </span>
                {!collapsed && <span className="menu-text">{item.label}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
