/**
 * Notices of the location screens stay 4 s (spec 2 §9). Its own module: the lists and screens that show
 * such a notice need the number, not the cluster form it was declared in (react-hook-form, the pickers).
 */
export const LOCATION_NOTICE_MS = 4000;
