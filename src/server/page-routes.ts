// The browser routes of spec §2 (and the pages decisions add); anything else is served the app
// with status 404 so it renders its "page not found" screen and crawlers see the truth.
const PAGE_ROUTES: RegExp[] = [
  /^\/$/, /^\/(fees|faq|support|privacy|terms|compliance|login|register|reset-password|dashboard|transfer|history|profile|admin)\/?$/,
  /^\/pay\/[\w-]+\/?$/, /^\/dev\/outbox\/?$/,
];

export const isKnownPageRoute = (pathname: string) => PAGE_ROUTES.some((r) => r.test(pathname));
