import { icon } from '@web/components/icons';

// The home page's icons, drawn by @web/components/icons' `icon` (paths from Lucide, ISC licence):
// in the home page's own code, not in the code it shares with other pages.

export const Clock = icon(<circle cx="12" cy="12" r="10" />, 'M12 6v6l4 2');
export const Eye = icon('M2.062 12.348a1 1 0 0 1 0-.696 10.75 10.75 0 0 1 19.876 0 1 1 0 0 1 0 .696 10.75 10.75 0 0 1-19.876 0', <circle cx="12" cy="12" r="3" />);
export const Headset = icon('M3 11h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-5Zm0 0a9 9 0 1 1 18 0m0 0v5a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3Z', 'M21 16v2a4 4 0 0 1-4 4h-5');
export const Lock = icon(<rect width="18" height="11" x="3" y="11" rx="2" ry="2" />, 'M7 11V7a5 5 0 0 1 10 0v4');
export const ShieldCheck = icon('M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z', 'm9 12 2 2 4-4');
export const Zap = icon('M15.914 4a1.5 1.5 0 00-2.474-1.561l-9 9A1.5 1.5 0 005.5 14h4.002a.5.5 0 01.471.666L8.086 20a1.5 1.5 0 002.475 1.56l9-9A1.5 1.5 0 0018.5 10h-3.997a.5.5 0 01-.472-.667z');
export const ArrowRight = icon('M5 12h14', 'm12 5 7 7-7 7');
export const RefreshCw = icon('M3 12a9 9 0 0 1 9-9 9.75 9.75 0 0 1 6.74 2.74L21 8', 'M21 3v5h-5', 'M21 12a9 9 0 0 1-9 9 9.75 9.75 0 0 1-6.74-2.74L3 16', 'M8 16H3v5');
