import type { AppRouteKey } from '@trasa/domain';
import type { ComponentType } from 'react';
import { MyAccountPage } from '../features/account/MyAccountPage';
import { NoticesPage } from '../features/notices/NoticesPage';

/**
 * The built screens, by route key. A key missing here renders UnderConstructionPage; later features
 * plug in by adding their page here.
 */
export const screens: Partial<Record<AppRouteKey, ComponentType>> = {
  notices: NoticesPage,
  myAccount: MyAccountPage,
};
