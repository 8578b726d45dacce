export const BUILD_INPUTS: string[];
export function sourceHash(root: string, inputs?: string[]): string;
export function staleReason(root: string, inputs?: string[]): string | null;
export function beginBuild(root: string, inputs?: string[]): void;
export function finishBuild(root: string): void;
