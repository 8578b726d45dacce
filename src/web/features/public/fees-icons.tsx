import { icon } from '@web/components/icons';

// The fees page's two icons, drawn by @web/components/icons' `icon` (paths from Lucide, ISC
// licence): lucide-react's shared chunk would be the page's largest file after the framework.

export const Clock = icon(<circle cx="12" cy="12" r="10" />, 'M12 6v6l4 2');
export const RefreshCw = icon('M3 12a9 9 0 0 1 9-9 9.75 9.75 0 0 1 6.74 2.74L21 8', 'M21 3v5h-5', 'M21 12a9 9 0 0 1-9 9 9.75 9.75 0 0 1-6.74-2.74L3 16', 'M8 16H3v5');
