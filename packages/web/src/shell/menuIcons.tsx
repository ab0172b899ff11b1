import type { SvgIconComponent } from '@mui/icons-material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AssessmentIcon from '@mui/icons-material/Assessment';
import CommentIcon from '@mui/icons-material/Comment';
import DescriptionIcon from '@mui/icons-material/Description';
import EmailIcon from '@mui/icons-material/Email';
import ForumIcon from '@mui/icons-material/Forum';
import GroupsIcon from '@mui/icons-material/Groups';
import HistoryIcon from '@mui/icons-material/History';
import HubIcon from '@mui/icons-material/Hub';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import PeopleIcon from '@mui/icons-material/People';
import type { MenuIcon } from '@trasa/domain';

export const MENU_ICONS: Record<MenuIcon, SvgIconComponent> = {
  progress: PendingActionsIcon,
  topics: ForumIcon,
  users: PeopleIcon,
  clusters: HubIcon,
  groups: GroupsIcon,
  contracts: DescriptionIcon,
  inventory: Inventory2Icon,
  reports: AssessmentIcon,
  ijo: AccountBalanceIcon,
  codebooks: MenuBookIcon,
  mail: EmailIcon,
  logs: HistoryIcon,
  account: AccountCircleIcon,
  comments: CommentIcon,
  notices: NotificationsIcon,
  roles: AdminPanelSettingsIcon,
};
