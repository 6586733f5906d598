import { ensureDeps } from './prepare.mjs';

ensureDeps();
