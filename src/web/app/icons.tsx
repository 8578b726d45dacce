import { icon } from '../components/icons';

// The app shell's icons (header, language menu, error page), drawn by components/icons' `icon`
// (paths from Lucide, ISC licence): in the shell's own code.

export const Menu = icon('M4 5h16', 'M4 12h16', 'M4 19h16');
export const Globe = icon(<circle cx="12" cy="12" r="10" />, 'M12 2a14.5 14.5 0 0 0 0 20 14.5 14.5 0 0 0 0-20', 'M2 12h20');
export const Check = icon('M20 6 9 17l-5-5');
export const LogOut = icon('m16 17 5-5-5-5', 'M21 12H9', 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4');
export const UserRound = icon(<circle cx="12" cy="8" r="5" />, 'M20 21a8 8 0 0 0-16 0');
export const TriangleAlert = icon('m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3', 'M12 9v4', 'M12 17h.01');
