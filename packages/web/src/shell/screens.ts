import type { AppRouteKey } from '@trasa/domain';
import { type ComponentType, lazy } from 'react';

/**
 * A screen's module is loaded when the screen is first opened (each feature is its own chunk; the login
 * page and the shell load none of them). `page(load, name)` turns a named export into a lazy component;
 * ScreenRoute renders it inside a Suspense boundary.
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType {
  const screen = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  loaders.set(screen, load);
  return screen;
}

const loaders = new Map<ComponentType, () => Promise<unknown>>();

/**
 * Starts loading a screen's module before it renders (App: the address the visit starts on), so that it
 * downloads while the profile call runs instead of after it (issue 13 item 3). A failure is left to the
 * screen's own lazy load, which reports it.
 */
export function preloadScreen(key: AppRouteKey): void {
  const screen = screens[key];
  const load = screen && loaders.get(screen);
  load?.().catch(() => undefined);
}

const MyAccountPage = page(() => import('../features/account/MyAccountPage'), 'MyAccountPage');
const ActivityPage = page(() => import('../features/activities/ActivityPage'), 'ActivityPage');
const CataloguePage = page(() => import('../features/catalogue/CataloguePage'), 'CataloguePage');
const ClusterEditPage = page(() => import('../features/clusters/ClusterFormPages'), 'ClusterEditPage');
const ClusterNewPage = page(() => import('../features/clusters/ClusterFormPages'), 'ClusterNewPage');
const ClusterPage = page(() => import('../features/clusters/ClusterPage'), 'ClusterPage');
const ClustersPage = page(() => import('../features/clusters/ClustersPage'), 'ClustersPage');
const MyClusterPage = page(() => import('../features/clusters/MyClustersPage'), 'MyClusterPage');
const MyClustersPage = page(() => import('../features/clusters/MyClustersPage'), 'MyClustersPage');
const CodebooksPage = page(() => import('../features/codebooks/CodebooksPage'), 'CodebooksPage');
const CommentsPage = page(() => import('../features/comments/CommentsPage'), 'CommentsPage');
const ClusterLinkContractPage = page(() => import('../features/contracts/ClusterLinkContractPage'), 'ClusterLinkContractPage');
const ContractLinkClustersPage = page(() => import('../features/contracts/ContractLinkClustersPage'), 'ContractLinkClustersPage');
const ContractPage = page(() => import('../features/contracts/ContractPage'), 'ContractPage');
const ContractorContractsPage = page(() => import('../features/contracts/ContractsPage'), 'ContractorContractsPage');
const DesignerContractsPage = page(() => import('../features/contracts/ContractsPage'), 'DesignerContractsPage');
const GeneralContractsPage = page(() => import('../features/contracts/ContractsPage'), 'GeneralContractsPage');
const SupervisionContractsPage = page(() => import('../features/contracts/ContractsPage'), 'SupervisionContractsPage');
const GroupDetailsPage = page(() => import('../features/groups/GroupDetailsPage'), 'GroupDetailsPage');
const GroupMembersPage = page(() => import('../features/groups/GroupMembersPage'), 'GroupMembersPage');
const GroupsPage = page(() => import('../features/groups/GroupsPage'), 'GroupsPage');
const IjoPage = page(() => import('../features/ijo/IjoPage'), 'IjoPage');
const InventoryPage = page(() => import('../features/inventory/InventoryPage'), 'InventoryPage');
const InventoryContractLocationsPage = page(() => import('../features/inventory/ContractLocationsPage'), 'ContractLocationsPage');
const InventoryLocationPage = page(() => import('../features/inventory/LocationInventoryPage'), 'LocationInventoryPage');
const LogsPage = page(() => import('../features/logs/LogsPage'), 'LogsPage');
const ActivitiesInProgressPage = page(() => import('../features/notices/ActivitiesInProgressPage'), 'ActivitiesInProgressPage');
const NoticesPage = page(() => import('../features/notices/NoticesPage'), 'NoticesPage');
const ReportPage = page(() => import('../features/reports/ReportsPage'), 'ReportPage');
const ReportsPage = page(() => import('../features/reports/ReportsPage'), 'ReportsPage');
const RoleEditPage = page(() => import('../features/roles/RolesPage'), 'RoleEditPage');
const RoleNewPage = page(() => import('../features/roles/RolesPage'), 'RoleNewPage');
const RolesPage = page(() => import('../features/roles/RolesPage'), 'RolesPage');
const UsersByRolePage = page(() => import('../features/roles/UsersByRolePage'), 'UsersByRolePage');
const SmtpDetailPage = page(() => import('../features/smtp/SmtpDetailPage'), 'SmtpDetailPage');
const SmtpListPage = page(() => import('../features/smtp/SmtpListPage'), 'SmtpListPage');
const TopicEditPage = page(() => import('../features/topics/TopicFormPages'), 'TopicEditPage');
const TopicNewPage = page(() => import('../features/topics/TopicFormPages'), 'TopicNewPage');
const TopicPage = page(() => import('../features/topics/TopicPage'), 'TopicPage');
const TopicsPage = page(() => import('../features/topics/TopicsPage'), 'TopicsPage');
const UserDetailsPage = page(() => import('../features/users/UserDetailsPage'), 'UserDetailsPage');
const UsersPage = page(() => import('../features/users/UsersPage'), 'UsersPage');

/**
 * The built screens, by route key. A key missing here renders UnderConstructionPage; later features
 * plug in by adding their page here.
 */
export const screens: Partial<Record<AppRouteKey, ComponentType>> = {
  notices: NoticesPage,
  activitiesInProgress: ActivitiesInProgressPage,
  activityCatalogue: CataloguePage,
  myAccount: MyAccountPage,
  users: UsersPage,
  user: UserDetailsPage,
  usersByRole: UsersByRolePage,
  roles: RolesPage,
  roleNew: RoleNewPage,
  roleEdit: RoleEditPage,
  groups: GroupsPage,
  group: GroupDetailsPage,
  groupMembers: GroupMembersPage,
  codebooks: CodebooksPage,
  clusters: ClustersPage,
  cluster: ClusterPage,
  clusterNew: ClusterNewPage,
  clusterEdit: ClusterEditPage,
  clusterLinkContract: ClusterLinkContractPage,
  contracts: GeneralContractsPage,
  contractsIzv: ContractorContractsPage,
  contractsPro: DesignerContractsPage,
  contractsNad: SupervisionContractsPage,
  contract: ContractPage,
  contractLinkClusters: ContractLinkClustersPage,
  myClusters: MyClustersPage,
  myCluster: MyClusterPage,
  topics: TopicsPage,
  topicNew: TopicNewPage,
  topicEdit: TopicEditPage,
  topic: TopicPage,
  ijo: IjoPage,
  inventory: InventoryPage,
  inventoryContractLocations: InventoryContractLocationsPage,
  inventoryLocation: InventoryLocationPage,
  logs: LogsPage,
  logsOfGroup: LogsPage,
  comments: CommentsPage,
  activity: ActivityPage,
  reports: ReportsPage,
  report: ReportPage,
  smtpList: SmtpListPage,
  smtpDetail: SmtpDetailPage,
};
