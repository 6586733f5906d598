/**
 * The server's icon: a calendar page with a tick, in the panel's accent colour. Browsers ask for
 * /favicon.ico on every origin they visit; without it each first page logged a 404 in the console.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect x="6" y="10" width="52" height="48" rx="8" fill="#3949ab"/>
<rect x="6" y="10" width="52" height="14" rx="8" fill="#283593"/>
<rect x="17" y="4" width="6" height="14" rx="3" fill="#283593"/>
<rect x="41" y="4" width="6" height="14" rx="3" fill="#283593"/>
<path d="M20 40l8 8 16-17" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;
