import type { ApiApp, AppDeps } from '../http/types.js';

export async function webhooksRoutes(_app: ApiApp, _deps: AppDeps): Promise<void> {}
