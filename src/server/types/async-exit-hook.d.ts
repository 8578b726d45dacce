declare module 'async-exit-hook' {
  interface ExitHook {
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
