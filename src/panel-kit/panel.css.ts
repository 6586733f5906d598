/**
 * The panel's one stylesheet, inlined in every page (no web fonts, nothing fetched).
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
.skip{position:absolute;inset-inline-start:-9999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:10}
.skip:focus{inset-inline-start:.5rem}
.visually-hidden,.skip-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.top{background:#20263a;color:#fff;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.6rem 1.25rem}
header.top a{color:#fff}
.brand{font-weight:700;font-size:1.1rem;text-decoration:none;margin-inline-end:auto}
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
.nav-toggle,.nav-button{display:none}
main{flex:1;min-width:0;padding:1.25rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem;line-height:1.25;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.75rem 0 .6rem}
.crumbs{font-size:.875rem;color:var(--muted);margin:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1.1rem 1.25rem;margin:0 0 1.25rem}
.card>h1:first-child,.card>h2:first-child{margin-top:0}
.narrow{max-width:28rem;margin:3rem auto;width:calc(100% - 2rem)}
.lead{color:var(--muted);margin-top:-.5rem}
.table-wrap{overflow-x:auto}
td.num,th.num{text-align:end;font-variant-numeric:tabular-nums}
table.figures tbody th,table.figures tfoot th{font-size:inherit;text-transform:none;letter-spacing:0;color:var(--ink);font-weight:400}
dl.glance{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:1rem;margin:0 0 1rem}
dl.glance>div{border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem}
dl.glance dt{font-size:.875rem;color:var(--muted)}
dl.glance dd{margin:0}
.glance-now{font-size:1.5rem;font-weight:600;font-variant-numeric:tabular-nums}
.next-days{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.35rem 1rem}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:start;padding:.55rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
td.actions{white-space:nowrap;text-align:end}
.field{margin:0 0 1rem}
.field label,.field legend{display:block;font-weight:600;margin-bottom:.3rem}
.field .hint{display:block;color:var(--muted);font-size:.875rem;margin:-.15rem 0 .3rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],input[type=time],input[type=date],input[type=tel],input[type=search],select,textarea{font:inherit;width:100%;max-width:32rem;padding:.5rem .6rem;border:1px solid #8a929c;border-radius:6px;background:#fff;color:var(--ink)}
select{width:auto;max-width:100%}
textarea{min-height:4.5rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
.checks label{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.2rem 0}
.checks code{font-size:.9rem}
code{direction:ltr;unicode-bidi:isolate}
.field.has-error input,.field.has-error select,.field.has-error textarea{border-color:var(--danger);border-width:2px}
.error{color:var(--danger);font-weight:600;margin:.3rem 0 0;font-size:.9rem}
.errors-summary{border:2px solid var(--danger);border-radius:8px;padding:.75rem 1rem;background:#fdf0ef;margin:0 0 1rem}
.errors-summary h2{margin:0 0 .25rem;font-size:1rem;color:var(--danger)}
.notice{border-inline-start:4px solid var(--ok);background:#eaf5ed;padding:.6rem .9rem;border-radius:4px;margin:0 0 1rem}
.warning{border-inline-start:4px solid var(--warn);background:#fdf6e9;padding:.6rem .9rem;border-radius:4px;margin:0 0 1rem}
button,.button{font:inherit;display:inline-block;padding:.5rem .95rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none;line-height:1.3}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--danger);border-color:var(--danger);color:#fff}a.danger{color:var(--danger)}
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
/* calendar (src/calendar/panel): the time grid; positions come from the page's own classes */
.cal-controls{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:flex-end;margin:0 0 .75rem}
.cal-controls .field{margin:0}
.cal-nav{margin:0 0 .5rem}
.cal-nav a:last-child{margin-inline-start:auto}
h2.cal-title{margin:.75rem 0 .5rem;font-size:1.1rem}
.cal-dst{border-inline-start:4px solid var(--warn);background:#fdf3e3;padding:.4rem .8rem;border-radius:4px;margin:.25rem 0 .5rem}
.cal{position:relative}
.cal-scroll{overflow:auto;max-height:78vh;border:1px solid var(--line);border-radius:8px;background:var(--card)}
.cal-head,.cal-body{display:flex;min-width:max-content}
.cal-head{position:sticky;top:0;z-index:3;background:var(--card);border-bottom:1px solid var(--line)}
.cal-corner,.cal-axis{flex:0 0 3.6rem;position:sticky;inset-inline-start:0;z-index:2;background:var(--card)}
.cal-axis{position:sticky;border-inline-end:1px solid var(--line)}
.cal-group{flex:1 0 auto;display:flex;flex-direction:column;border-inline-start:1px solid #b9bfc8}
.cal-group-title{font-weight:600;font-size:.85rem;text-align:center;padding:.2rem;border-bottom:1px solid var(--line)}
.cal-group-cols{display:flex;flex:1}
.cal-col-title{flex:1 0 9rem;width:9rem;font-size:.8rem;font-weight:600;padding:.3rem .35rem;text-align:center;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.cal-col-type{display:block;font-weight:400;font-size:.7rem;color:var(--muted)}
.cal-col{flex:1 0 9rem;width:9rem;position:relative;background-color:#eceef2;background-image:linear-gradient(#d6dae0 1px,transparent 1px);background-size:100% 48px;border-inline-start:1px solid var(--line)}
/* Wide enough for a card's "10:00–11:00" in bold, the one line a card never cuts. */
.cal-week .cal-col-title,.cal-week .cal-col,.cal-staffer-week .cal-col-title,.cal-staffer-week .cal-col{flex-basis:6.5rem;width:6.5rem}
.cal-week .cal-col,.cal-staffer-week .cal-col{background-size:100% 40px}
.cal-hour{position:absolute;inset-inline:0 .35rem;text-align:end;font-size:.72rem;color:var(--muted);line-height:1;padding-top:2px;white-space:nowrap}
.shade{position:absolute;inset-inline:0;font-size:.7rem;color:var(--muted);overflow:hidden}
.shade.work{background:#fff}
.shade.break{background:repeating-linear-gradient(135deg,#f1f2f5 0 6px,#e2e5ea 6px 12px)}
.shade.skipped{background:repeating-linear-gradient(45deg,#fbe3e1 0 6px,#fff 6px 12px);color:var(--danger);z-index:1;text-align:center}
.shade.busy{background:repeating-linear-gradient(135deg,#e8eaf6 0 6px,#dde0f2 6px 12px);color:var(--ink);padding:1px 4px;border-inline-start:3px solid var(--accent)}
.shade.repeated{background:#fff3d6b3;color:var(--warn);text-align:center}
.blk{position:absolute;inset-inline-start:0;width:calc(100% - 2px);z-index:1;display:block;overflow:hidden;background:#e6e9fb;color:var(--ink);border:1px solid #9aa3c9;border-inline-start:4px solid var(--accent);border-radius:5px;padding:1px 4px;font-size:.74rem;line-height:14px;text-decoration:none;touch-action:none}
.blk-time,.blk-who,.blk-what{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.blk.fit1{white-space:nowrap;text-overflow:ellipsis}
.blk.fit1 .blk-time,.blk.fit1 .blk-who{display:inline}
.blk.fit1 .blk-what,.blk.fit2 .blk-what{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
a.blk:hover{background:#d9def8}
.blk.done{background:#e3f2e7;border-color:#9bc5a6}
.blk.outside{outline:2px dashed var(--warn);outline-offset:-3px}.blk-flag{color:#8a4b00;font-weight:700}
.blk.group{background:#fff3dc;border-color:#d9b77a}
.blk-time{font-weight:700}
.blk-people{margin:0;padding:0 0 0 1rem}
.blk.dragging{opacity:.85;z-index:5;box-shadow:0 4px 12px #0004;pointer-events:none}
.cal-drop{position:absolute;inset-inline:0;z-index:4;border:2px dashed var(--accent);border-radius:5px;background:#3949ab22;pointer-events:none}
.cal-legend .key{display:inline-block;width:.9rem;height:.9rem;border:1px solid var(--line);vertical-align:-.15rem}
.cal-legend .key.work{background:#fff}
.cal-legend .key.break{background:repeating-linear-gradient(135deg,#f1f2f5 0 3px,#d6dae0 3px 6px)}
.cal-legend .key.off{background:#eceef2}
dialog.cal-dialog{border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;max-width:24rem;width:calc(100% - 2rem)}
dialog.cal-dialog::backdrop{background:#0006}
.blk-move{position:absolute;inset-inline-end:2px;top:2px;z-index:2;font-size:.7rem;padding:0 .3rem;background:#fff;color:var(--accent);border:1px solid var(--accent);border-radius:4px;line-height:1.3}
.cal-days{display:none}
@media (max-width:720px){
  /* The page scrolls, not a box inside it: a nested scroll area on a phone hid the last hours. */
  .cal-scroll{max-height:none}
  /* The controls and date links in few rows, so the grid starts within the first screen. */
  /* Two rows: location, view, columns; then staff, the date (wide enough for its digits), Show
     (wide enough for its longest translation, "Anzeigen"). */
  .cal-controls{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:.4rem .5rem;align-items:end}
  .cal-controls>*{grid-column:span 4}
  .cal-controls .field:nth-child(2),.cal-controls .field:nth-child(4){grid-column:span 3}
  .cal-controls .field:nth-child(3),.cal-controls .field:nth-child(5){grid-column:span 5}
  .cal-controls select,.cal-controls input{width:100%;min-width:0}
  .cal-nav{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:.4rem}
  .cal-nav .button{text-align:center;padding:.45rem .25rem;font-size:.9rem}
  .cal-nav a:last-child{margin-inline-start:0;align-self:center;text-align:center}
  .cal-title{font-size:1rem}
  .cal-title .muted{display:block;font-size:.85rem;font-weight:400}
  .cal-title .cal-sep{display:none}
  .cal-col-title,.cal-col{flex-basis:7.5rem;width:7.5rem}
  /* A week on a phone is one day at a time, as wide as the screen; its days are links above it. */
  .cal .cal-other{display:none}
  .cal-week .cal-col-title,.cal-week .cal-col,.cal-staffer-week .cal-col-title,.cal-staffer-week .cal-col{flex:1 0 6rem;width:auto}
  .cal-days{display:block;margin:0 0 .5rem}
  .cal-days ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(7,1fr);gap:2px}
  .cal-days span{display:block}
  .cal-days a{display:block;text-align:center;padding:.3rem 0;border:1px solid var(--line);border-radius:6px;background:var(--card);text-decoration:none;font-size:.85rem;line-height:1.2}
  .cal-days a[aria-current]{background:var(--accent);border-color:var(--accent);color:var(--accent-ink);font-weight:600}
}
@media (max-width:720px){
  .shell{flex-direction:column}
  nav.side{flex:none;padding:.5rem 1rem 0;position:relative}
  .nav-toggle{display:block;position:absolute;inset-inline-start:1rem;top:.5rem;width:1px;height:1px;margin:0;opacity:0}
  .nav-button{display:inline-block;font-weight:600;padding:.4rem .9rem;border:1px solid var(--accent);border-radius:6px;background:#fff;color:var(--accent);cursor:pointer}
  .nav-button::before{content:"\\2630";content:"\\2630"/"";margin-inline-end:.45rem}
  .nav-toggle:checked+.nav-button{background:#e3e6f5}
  .nav-toggle:focus-visible+.nav-button{outline:3px solid var(--focus);outline-offset:2px}
  .nav-links{display:none;padding-top:.4rem}
  .nav-toggle:checked~.nav-links{display:block}
  nav.side ul{display:flex;flex-wrap:wrap;gap:.25rem}
  nav.side .group{display:none}
  main{padding:1rem}
  .switcher select{max-width:9.5rem}
  /* The select names the workspace; its label stays for screen readers but takes no row. */
  .switcher label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
  table.stack thead{position:absolute;inset-inline-start:-9999px}
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
  table.stack tr{border:1px solid var(--line);border-radius:8px;margin:0 0 .75rem;padding:.25rem .5rem;background:var(--card)}
  table.stack td{border:0;padding:.3rem 0}
  table.stack td[data-label]::before{content:attr(data-label);display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
  table.stack td.actions{text-align:start}
}
/* setup-b: staffers, hours, customers, bookings list */
.pager{margin:1rem 0;gap:1rem}
.matrix-groups{display:flex;flex-wrap:wrap;gap:.5rem 2rem}
.matrix-groups fieldset{margin:0;min-width:12rem}
.matrix-groups legend{font-weight:600;color:var(--muted);font-size:.9rem}
.hours-at{border-top:1px solid var(--line);padding-top:.75rem;margin-top:.75rem}
.week-preview{margin:0 0 1.25rem;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem}
.week-preview figcaption{font-weight:600;margin-bottom:.5rem}
.week-grid{display:grid;grid-template-columns:3rem repeat(7,minmax(0,1fr));gap:0 2px;max-width:36rem;font-size:.75rem}
/* "Mon 23" breaks between day and date where seven columns do not fit a phone's width. */
.wk-head{text-align:center;font-weight:600;padding-bottom:.2rem;line-height:1.15}
.wk-head.today{color:var(--accent);text-decoration:underline}
.wk-time{color:var(--muted);line-height:1;transform:translateY(-.35rem)}
.wk-cell{height:.6rem;background:#eef0f3}
.wk-cell.work,.wk-swatch.work{background:#7986cb}
.wk-cell.break,.wk-swatch.break{background:#f0a040}
.wk-swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;vertical-align:middle;background:#eef0f3;border:1px solid #8a929c;margin-inline-start:.5rem}
.wk-legend{font-size:.85rem;color:var(--muted);margin:.5rem 0 .25rem}
.wk-text{margin:.25rem 0 0;padding-inline-start:1.1rem;font-size:.9rem}
.range{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem;margin:0 0 .35rem}
/* Wide enough for a 12-hour time with its clock icon ("09:00 AM"), whatever the browser's locale. */
.range input[type=time]{width:9rem}
.range .error{flex-basis:100%;margin:0}
.range.has-error input{border-color:var(--danger);border-width:2px}
table.hours th[scope=row]{font-size:1rem;text-transform:none;letter-spacing:0;color:var(--ink);white-space:nowrap}
fieldset.week>legend,fieldset.overrides>legend{font-size:1.1rem;font-weight:700;margin-bottom:.4rem}
fieldset.override{border:1px solid var(--line);border-radius:8px;padding:.6rem .9rem;margin:0 0 .75rem}
fieldset.override.has-error{border-color:var(--danger)}
fieldset.override legend{font-weight:600;padding:0 .3rem}
fieldset.override .row{align-items:flex-start;gap:0 1.5rem}
fieldset.override .field{margin-bottom:.5rem}
.override-hours .sub{margin:0 0 .25rem;font-weight:600;font-size:.9rem}
label.remove{display:flex;gap:.4rem;align-items:center;margin-top:1.8rem}
form.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end}
form.filters .field{margin-bottom:.75rem}
form.filters input[type=date]{width:10rem}
form.filters input[type=search]{width:14rem}
.money{white-space:nowrap;font-variant-numeric:tabular-nums}
@media (max-width:720px){
  .week-grid{grid-template-columns:2.2rem repeat(7,1fr)}
  label.remove{margin-top:0}
  .range input[type=time],.hours-range input[type=time]{flex:1 1 0;min-width:0;max-width:9rem}
  .range .error{flex-basis:100%}
  table.stack th[scope=row]{display:block;border:0;padding:.3rem 0 0}
  form.filters input[type=search],form.filters input[type=date]{width:100%}
}
/* panel-bookings: the booking page and New booking */
button[name=show]{margin:0 0 1rem}
.booking-forms{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(20rem,100%),1fr));gap:0 1.25rem}
.booking-forms>*{min-width:0}
.booking-forms .card h2{font-size:1.05rem}
.series .booking-forms{gap:1rem 1.25rem}
.series .booking-forms h3{margin-top:0}
.series-occurrences{padding-inline-start:1.25rem}
.repeat label:has(>input[type=checkbox]){font-weight:normal}
.row.fields{align-items:flex-start;gap:0 1rem}
.row.fields .field input{width:11rem}
/* A phone number with its country code and spaces (+49 151 0000 0088) is read whole. */
.row.fields .field input[type=tel]{width:14rem}
ul.plain{list-style:none;margin:0;padding:0}
.pre-line{white-space:pre-line}
.conflict .free-times{margin-top:.5rem}
/* panel-home: today's agenda and the next setup step */
ol.agenda{list-style:none;margin:0 0 1rem;padding:0}
ol.agenda li{padding:.45rem 0;border-bottom:1px solid var(--line)}
ol.agenda li.own{font-weight:600}
.agenda-time{font-variant-numeric:tabular-nums;display:inline-block;min-width:8.5rem}
.next-step{border-inline-start:4px solid var(--accent)}
.conflict h2{font-size:1.05rem}
ul.matches{margin:.25rem 0 0;padding-inline-start:1.1rem}
ul.matches li{margin:.2rem 0}
@media (max-width:720px){
  .booking-forms{grid-template-columns:minmax(0,1fr)}
  .row.fields .field input,.row.fields .field input[type=tel]{width:100%}
}
/* setup pages: locations, services, statuses, payment accounts, workspace settings */
.hours-day{display:grid;grid-template-columns:7rem 1fr;gap:.25rem 1rem;align-items:end;padding:.5rem 0;border-bottom:1px solid var(--line)}
.hours-day .error{grid-column:2}
.hours-name{font-weight:600;padding-bottom:.5rem}
.hours-ranges{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
.hours-range{display:flex;gap:.5rem}
.hours-day label.inline-field{display:flex;flex-direction:column;gap:.15rem;font-size:.875rem}
.hours-day input[type=time]{width:9rem}
.hours-day.has-error input{border-color:var(--danger);border-width:2px}
.row.fields{align-items:flex-start;gap:0 1rem}
.row.fields .field{flex:1 1 12rem}
ul.archived{padding-inline-start:1.2rem}
ul.archived li{margin:.2rem 0}
.swatch{vertical-align:middle;margin-inline-end:.4rem;border-radius:3px}
form section{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1rem}
form section:first-of-type{border-top:0;margin-top:0}
form section>h2{margin-top:.5rem}
.form-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:0 1rem}
@media (max-width:720px){
  .hours-day{grid-template-columns:1fr}
  .hours-day .error{grid-column:1}
  .hours-name{padding-bottom:0}
}
/* The waitlist's add form: each wanted time a compact row (date, from, until). */
.waitlist-add{margin-top:1.25rem}
fieldset.waitlist-windows>legend{font-weight:700;margin-bottom:.25rem}
fieldset.waitlist-window{margin:0 0 .25rem}
.row.fields.waitlist-window .field{flex:0 1 11rem;margin-bottom:.5rem}
@media (max-width:720px){
  fieldset.waitlist-window{display:grid;grid-template-columns:1fr 1fr;gap:0 .75rem;border-top:1px solid var(--line);padding-top:.5rem}
  fieldset.waitlist-window .field:first-of-type{grid-column:1 / -1}
}
`;
