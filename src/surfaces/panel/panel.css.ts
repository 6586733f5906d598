/**
 * The panel's one stylesheet, inlined in every page (DESIGN §5: no web fonts, nothing fetched).
 * System fonts, a readable measure, colours with at least 4.5:1 contrast, and a layout that
 * stacks below 720 px.
 */
export const PANEL_CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#1b1f24;--muted:#555d66;--line:#d6dae0;--bg:#f5f6f8;--card:#fff;--accent:#3949ab;--accent-ink:#fff;--danger:#b3261e;--ok:#1e6b34;--warn:#8a5200;--focus:#ffbf47}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5;color:var(--ink);background:var(--bg)}
body{margin:0;min-height:100vh;display:flex;flex-direction:column}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
.visually-hidden,.skip-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.top{background:#20263a;color:#fff;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.6rem 1.25rem}
header.top a{color:#fff}
.brand{font-weight:700;font-size:1.1rem;text-decoration:none;margin-right:auto}
.switcher{display:flex;gap:.4rem;align-items:center}
.switcher label{font-size:.875rem}
.switcher select{max-width:14rem}
header.top button{background:transparent;color:#fff;border:1px solid #9aa3b5}
.shell{display:flex;flex:1;width:100%;max-width:76rem;margin:0 auto}
nav.side{flex:0 0 13rem;padding:1.25rem 1rem}
nav.side ul{list-style:none;margin:0;padding:0}
nav.side li{margin:.1rem 0}
nav.side a{display:block;padding:.4rem .6rem;border-radius:6px;text-decoration:none;color:var(--ink)}
nav.side a[aria-current=page]{background:#e3e6f5;font-weight:600;color:#1f2a6b}
nav.side .group{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:1rem .6rem .25rem}
main{flex:1;min-width:0;padding:1.25rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem;line-height:1.25;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.75rem 0 .6rem}
.crumbs{font-size:.875rem;color:var(--muted);margin:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1.1rem 1.25rem;margin:0 0 1.25rem}
.card>h1:first-child,.card>h2:first-child{margin-top:0}
.narrow{max-width:28rem;margin:3rem auto;width:calc(100% - 2rem)}
.lead{color:var(--muted);margin-top:-.5rem}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:.55rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
td.actions{white-space:nowrap;text-align:right}
.field{margin:0 0 1rem}
.field label,.field legend{display:block;font-weight:600;margin-bottom:.3rem}
.field .hint{display:block;color:var(--muted);font-size:.875rem;margin:-.15rem 0 .3rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],input[type=time],input[type=date],input[type=tel],input[type=search],select,textarea{font:inherit;width:100%;max-width:32rem;padding:.5rem .6rem;border:1px solid #8a929c;border-radius:6px;background:#fff;color:var(--ink)}
select{width:auto}
textarea{min-height:4.5rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
.checks label{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.2rem 0}
.checks code{font-size:.9rem}
.field.has-error input,.field.has-error select,.field.has-error textarea{border-color:var(--danger);border-width:2px}
.error{color:var(--danger);font-weight:600;margin:.3rem 0 0;font-size:.9rem}
.errors-summary{border:2px solid var(--danger);border-radius:8px;padding:.75rem 1rem;background:#fdf0ef;margin:0 0 1rem}
.errors-summary h2{margin:0 0 .25rem;font-size:1rem;color:var(--danger)}
.notice{border-left:4px solid var(--ok);background:#eaf5ed;padding:.6rem .9rem;border-radius:4px;margin:0 0 1rem}
button,.button{font:inherit;display:inline-block;padding:.5rem .95rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none;line-height:1.3}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
button.link{background:none;border:0;color:var(--accent);text-decoration:underline;padding:0}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
form.inline{display:inline}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}
.secret [data-copy-target]{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.secret code{user-select:all;-webkit-user-select:all;word-break:break-all;background:#f0f2f7;border:1px dashed #8a929c;border-radius:6px;padding:.5rem .6rem;font-size:.95rem;max-width:100%}
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:.1rem .5rem;border-radius:999px;border:1px solid currentColor;white-space:nowrap}
.badge.delivered,.badge.enabled{color:var(--ok)}
.badge.pending{color:#1f4e8c}
.badge.failing{color:var(--warn)}
.badge.given-up,.badge.disabled{color:var(--danger)}
.muted{color:var(--muted)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
dl.meta dt{color:var(--muted)}
dl.meta dd{margin:0;overflow-wrap:anywhere}
dl.meta+.row{margin-top:1rem}
.delivery .row>span{overflow-wrap:anywhere;min-width:0}
td a,td code{overflow-wrap:anywhere}
details.attempts summary{cursor:pointer}
pre.excerpt{white-space:pre-wrap;word-break:break-all;background:#f0f2f7;padding:.4rem .6rem;border-radius:6px;margin:.3rem 0;font-size:.85rem;max-height:8rem;overflow:auto}
h3{font-size:1.05rem;margin:0 0 .25rem}
.wrap{overflow-wrap:break-word}
td.wrap{min-width:9rem}
.badge.muted{color:var(--muted)}
.field label.inline-field{display:flex;flex-direction:column;gap:.25rem;font-weight:400;margin:0}
.inline-field input{width:7rem}
form.staffer{border-top:1px solid var(--line);padding-top:1rem;margin-top:1rem}
form.staffer .row{align-items:flex-start;gap:0 1.5rem}
pre.mail-text{max-height:none;word-break:normal;overflow-wrap:anywhere;font-size:.9rem}
footer.bottom{color:var(--muted);font-size:.8rem;text-align:center;padding:1rem}
@media (max-width:720px){
  .shell{flex-direction:column}
  nav.side{flex:none;padding:.5rem 1rem 0}
  nav.side ul{display:flex;flex-wrap:wrap;gap:.25rem}
  nav.side .group{display:none}
  main{padding:1rem}
  .switcher select{max-width:9.5rem}
  table.stack thead{position:absolute;left:-9999px}
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
  table.stack tr{border:1px solid var(--line);border-radius:8px;margin:0 0 .75rem;padding:.25rem .5rem;background:var(--card)}
  table.stack td{border:0;padding:.3rem 0}
  table.stack td[data-label]::before{content:attr(data-label);display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
  table.stack td.actions{text-align:left}
}
/* setup pages: locations, services, statuses, payment accounts, workspace settings */
.hours-day{display:grid;grid-template-columns:7rem 1fr;gap:.25rem 1rem;align-items:end;padding:.5rem 0;border-bottom:1px solid var(--line)}
.hours-day .error{grid-column:2}
.hours-name{font-weight:600;padding-bottom:.5rem}
.hours-ranges{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
.hours-range{display:flex;gap:.5rem}
.hours-day label.inline-field{display:flex;flex-direction:column;gap:.15rem;font-size:.875rem}
.hours-day input[type=time]{width:8rem}
.hours-day.has-error input{border-color:var(--danger);border-width:2px}
.row.fields{align-items:flex-start;gap:0 1rem}
.row.fields .field{flex:1 1 12rem}
ul.archived{padding-left:1.2rem}
ul.archived li{margin:.2rem 0}
.swatch{vertical-align:middle;margin-right:.4rem;border-radius:3px}
form section{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1rem}
form section:first-of-type{border-top:0;margin-top:0}
form section>h2{margin-top:.5rem}
.form-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:0 1rem}
@media (max-width:720px){
  .hours-day{grid-template-columns:1fr}
  .hours-day .error{grid-column:1}
  .hours-name{padding-bottom:0}
}
`;
