import type { ApiApp, AppDeps } from '../http/types.js';

export async function customersRoutes(_app: ApiApp, _deps: AppDeps): Promise<void> {}
