import type { AppRouteKey } from '@trasa/domain';
import type { ComponentType } from 'react';
import { MyAccountPage } from '../features/account/MyAccountPage';
import { ClusterEditPage, ClusterNewPage } from '../features/clusters/ClusterFormPages';
import { ClusterPage } from '../features/clusters/ClusterPage';
import { ClustersPage } from '../features/clusters/ClustersPage';
import { MyClusterPage, MyClustersPage } from '../features/clusters/MyClustersPage';
import { CodebooksPage } from '../features/codebooks/CodebooksPage';
import { ClusterLinkContractPage } from '../features/contracts/ClusterLinkContractPage';
import { ContractLinkClustersPage } from '../features/contracts/ContractLinkClustersPage';
import { ContractPage } from '../features/contracts/ContractPage';
import {
  ContractorContractsPage,
  DesignerContractsPage,
  GeneralContractsPage,
  SupervisionContractsPage,
} from '../features/contracts/ContractsPage';
import { GroupDetailsPage } from '../features/groups/GroupDetailsPage';
import { GroupMembersPage } from '../features/groups/GroupMembersPage';
import { GroupsPage } from '../features/groups/GroupsPage';
import { NoticesPage } from '../features/notices/NoticesPage';
import { RoleEditPage, RoleNewPage, RolesPage } from '../features/roles/RolesPage';
import { UsersByRolePage } from '../features/roles/UsersByRolePage';
import { TopicEditPage, TopicNewPage } from '../features/topics/TopicFormPages';
import { TopicPage } from '../features/topics/TopicPage';
import { TopicsPage } from '../features/topics/TopicsPage';
import { UserDetailsPage } from '../features/users/UserDetailsPage';
import { UsersPage } from '../features/users/UsersPage';

/**
 * The built screens, by route key. A key missing here renders UnderConstructionPage; later features
 * plug in by adding their page here.
 */
export const screens: Partial<Record<AppRouteKey, ComponentType>> = {
  notices: NoticesPage,
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
};
