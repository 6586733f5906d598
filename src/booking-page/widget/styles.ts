/**
 * The booking page's whole stylesheet, inlined into each page (one request, no web fonts: the
 * system font stack). Mobile first; works from 320 px. Colours meet WCAG AA contrast. Sides are
 * logical (margin-inline-start, border-inline-start), so Arabic pages (`dir=rtl`) mirror as a whole.
 */
export const BOOKING_PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9}
body.embed{background:#fff}
header{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding:.75rem 1rem;background:#fff;border-bottom:1px solid #d8dde3}
.embed header{padding:.5rem 1rem}
.brand{font-weight:700;color:inherit;text-decoration:none}
nav a,nav span{margin-inline-start:.5rem;font-size:.875rem}
.lang{display:flex;gap:.25rem;align-items:center;margin-inline-start:auto}
.lang select{width:auto;max-width:9rem;padding:.25rem;font-size:.875rem}
.lang button{margin:0;padding:.3125rem .625rem;font-size:.875rem}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.375rem;margin:.5rem 0 1rem}
h2{font-size:1.0625rem;margin:1.25rem 0 .5rem}
a{color:#0b57b0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.back{display:inline-block;margin-bottom:.25rem}
ul.choices{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.choice{display:flex;justify-content:space-between;gap:1rem;padding:.75rem 1rem;background:#fff;border:1px solid #c5ccd4;border-radius:.5rem;color:inherit;text-decoration:none}
.choice:hover{border-color:#0b57b0}
.choice small,.muted{color:#4d5661}
.days{display:grid;grid-template-columns:repeat(7,1fr);gap:.25rem;list-style:none;padding:0;margin:0 0 1rem}
.days a,.days .off{display:flex;flex-direction:column;align-items:center;padding:.375rem 0;border-radius:.375rem;border:1px solid #c5ccd4;background:#fff;color:inherit;text-decoration:none;font-size:.8125rem;line-height:1.3}
.days b{font-size:1.0625rem}
.days .off{color:#4d5661;background:#eef0f3;border-color:#eef0f3}
.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.days a[aria-current]{background:#0b57b0;border-color:#0b57b0;color:#fff}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem;list-style:none;padding:0;margin:0}
.slots a{display:block;text-align:center;padding:.5rem .25rem;border:1px solid #0b57b0;border-radius:.375rem;background:#fff;color:#0b57b0;text-decoration:none;font-weight:600}
.slots a:hover{background:#e8f0fb}
.slots small{display:block;font-weight:400;color:#4d5661}
.current-slot{display:block;text-align:center;padding:.5rem .25rem;border:1px dashed #4d5661;border-radius:.375rem;background:#eef0f3;font-weight:600}
.current{background:#fff;border:1px solid #d8dde3;border-inline-start:4px solid #0b57b0;border-radius:.5rem;padding:.5rem .75rem;margin:0 0 1rem}
.pager{display:flex;justify-content:space-between;margin:.5rem 0 1rem}
.month{background:#fff;border:1px solid #d8dde3;border-radius:.5rem;padding:.5rem .75rem;margin-bottom:1rem}
.month summary{cursor:pointer;font-weight:600;color:#0b57b0}
.month .pager{margin:.5rem 0 0}
.cal{width:100%;border-collapse:collapse;table-layout:fixed;text-align:center}
.cal caption{font-weight:600;padding:.25rem 0}
.cal th{font-size:.8125rem;color:#4d5661;padding:.25rem 0}
.cal td{padding:2px}
.cal a,.cal .off{display:block;padding:.375rem 0;border-radius:.375rem;border:1px solid transparent}
.cal a{border-color:#c5ccd4;color:inherit;text-decoration:none}
.cal a:hover{border-color:#0b57b0}
.cal a[aria-current]{background:#0b57b0;border-color:#0b57b0;color:#fff}
.cal .off{color:#4d5661}
.zone{background:#fff;border:1px solid #d8dde3;border-radius:.5rem;padding:.5rem .75rem;margin-bottom:1rem}
.zone form{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.5rem .75rem;align-items:center;margin-top:.5rem}
.zone label{margin:0}
.zone .find{display:contents}
.zone button{margin:0;padding:.375rem .75rem;grid-column:2;justify-self:start}
@media (max-width:30rem){.zone form{grid-template-columns:minmax(0,1fr);gap:.25rem}.zone button{grid-column:1;margin-top:.25rem}}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
input[type=text],input[type=tel],input[type=email],input[type=search],textarea,select{width:100%;padding:.5rem;border:1px solid #8a939d;border-radius:.375rem;font:inherit;background:#fff}
.zone select,.zone input{width:100%}
input[type=tel],input[type=email]{direction:ltr}
[dir=rtl] input[type=tel],[dir=rtl] input[type=email]{text-align:right}
textarea{min-height:5rem}
.hint{font-size:.875rem;color:#4d5661;margin:.125rem 0 0}
.error{color:#b3261e;font-size:.9375rem;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#b3261e}
.notice{padding:.75rem 1rem;border-radius:.5rem;background:#fff4e5;border:1px solid #f0b45b;margin-bottom:1rem}
.notice.ok{background:#e9f6ec;border-color:#7cc48c}
.hp{position:absolute;inset-inline-start:-10000px;width:1px;height:1px;overflow:hidden}
button,.button{display:inline-block;margin-top:1rem;padding:.625rem 1.25rem;border:0;border-radius:.375rem;background:#0b57b0;color:#fff;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
button.secondary,.button.secondary{background:#fff;color:#0b57b0;border:1px solid #0b57b0}
button.danger{background:#b3261e}
.button.danger-outline{background:#fff;color:#b3261e;border:1px solid #b3261e;padding:calc(.625rem - 1px) calc(1.25rem - 1px)}
.confirm-danger{background:#fff;border:2px solid #b3261e;border-radius:.5rem;padding:.25rem 1rem 1rem;margin-top:1rem}
.confirm-danger .actions>*{margin-top:.5rem}
.confirm-danger button{border:1px solid #b3261e}
dl.summary{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;background:#fff;border:1px solid #d8dde3;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
dl.summary dt{font-weight:600}
dl.summary dd{margin:0;overflow-wrap:anywhere}
.payment{background:#fff;border:1px solid #d8dde3;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.payment h2{font-size:1.05rem;margin:0 0 .5rem}
.payment ul{margin:.5rem 0;padding-inline-start:1.25rem}
.payment p{margin:.25rem 0}
.contact{display:block;margin-top:.25rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}
.manage-link{overflow-wrap:anywhere;font-size:.875rem}
.waitlist-link{margin-top:1.25rem}
.waitlist-windows{min-width:0}
.waitlist-windows .window-row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.5rem;margin:.5rem 0}
.waitlist-windows .window-row label{font-size:.875rem;margin:0;min-width:0}
.waitlist-windows .window-row label:first-child{grid-column:1/-1}
.waitlist-windows .window-row input{width:100%;min-width:0;padding:.375rem;border:1px solid #8a939d;border-radius:.375rem;font:inherit;background:#fff}
@media (min-width:36rem){.waitlist-windows .window-row{grid-template-columns:minmax(0,1.4fr) minmax(0,1fr) minmax(0,1fr)}.waitlist-windows .window-row label:first-child{grid-column:auto}}
.waitlist-windows .window-row .error{grid-column:1/-1;margin:0}
`
  .replace(/\n/g, '')
  .trim();
