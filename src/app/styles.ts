// The application's one stylesheet (served as /app/assets/app-<hash>.css; no inline styles, which
// the Content-Security-Policy forbids). Colours keep WCAG AA contrast; focus is always visible.
export const stylesheet = `
:root{--ink:#1b1f24;--muted:#4d5660;--line:#d0d7de;--soft:#f6f8fa;--accent:#0b57d0;--accent-ink:#fff;--danger:#b3261e;--ok:#116329;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff;line-height:1.5}
*{box-sizing:border-box}
body{margin:0}
a{color:var(--accent)}
:focus-visible{outline:3px solid #ffbf47;outline-offset:1px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem;z-index:10}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.bar{display:flex;align-items:center;gap:1rem;padding:.6rem 1.5rem;border-bottom:1px solid var(--line);background:var(--soft)}
.brand{font-weight:700;color:var(--ink);text-decoration:none;margin-right:auto}
.bar nav a{margin-right:.5rem}
.bar form{margin:0}
main{max-width:72rem;margin:0 auto;padding:1.25rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:.25rem 0 1rem;word-break:break-word}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:0 0 1rem}
.toolbar form{margin:0;display:inline}
.button,button{display:inline-block;font:inherit;font-size:.95rem;padding:.4rem .9rem;border-radius:6px;border:1px solid var(--line);
background:#fff;color:var(--ink);cursor:pointer;text-decoration:none;line-height:1.4}
.button:hover,button:hover{background:var(--soft)}
.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-ink)}
.primary:hover{background:#0842a0}
.danger{color:var(--danger);border-color:var(--danger)}
input[type=text],input[type=search],select,textarea{font:inherit;padding:.4rem .6rem;border:1px solid #6e7781;border-radius:6px;background:#fff;color:var(--ink)}
label{font-weight:600}
.field{display:flex;flex-direction:column;gap:.25rem;margin:0 0 1rem;max-width:36rem}
.notice{padding:.6rem .9rem;border-radius:6px;border:1px solid var(--line);background:var(--soft);margin:0 0 1rem}
.notice.error{border-color:var(--danger);color:var(--danger);background:#fff5f5}
.notice.ok{border-color:var(--ok);color:var(--ok);background:#f2fbf4}
table.list{border-collapse:collapse;width:100%}
table.list th,table.list td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:middle}
table.list th{font-size:.85rem;color:var(--muted);font-weight:600}
table.list td form{display:inline;margin:0 .25rem 0 0}
.kind{font-size:.85rem;color:var(--muted)}
.pager{display:flex;gap:1rem;margin:1rem 0}
.search{display:flex;gap:.5rem;align-items:center}
.dropzone{border:2px dashed var(--line);border-radius:8px;padding:.75rem 1rem;color:var(--muted);margin:0 0 1rem}
.dropzone.over{border-color:var(--accent);background:#eef4ff}
.document{border:1px solid var(--line);border-radius:8px;padding:1rem 1.5rem;background:#fff;overflow-wrap:break-word}
.document table{border-collapse:collapse}
.document th,.document td{border:1px solid var(--line);padding:.25rem .5rem}
.document pre{background:var(--soft);padding:.75rem;overflow:auto}
.document img{max-width:100%}
.align-center{text-align:center}.align-right{text-align:right}.align-left{text-align:left}
.editor{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.editor textarea{width:100%;min-height:28rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9rem}
.editor .document{min-height:28rem;overflow:auto}
.pane-label{font-size:1rem;margin:0}
.editor label,.pane-label{display:block;margin:0 0 .25rem}
.conflict{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.conflict pre{white-space:pre-wrap;background:var(--soft);border:1px solid var(--line);padding:.75rem;max-height:24rem;overflow:auto}
.share-link{display:flex;gap:.5rem;align-items:center;margin:0 0 1rem}
.share-link input{flex:1;max-width:40rem}
.meta{color:var(--muted);font-size:.9rem;margin:-.5rem 0 1rem}
.tabs{display:flex;gap:.25rem;border-bottom:1px solid var(--line);margin:.5rem 0 0}
.tabs a{padding:.35rem .8rem;border:1px solid var(--line);border-bottom:none;border-radius:6px 6px 0 0;text-decoration:none;color:var(--ink);background:var(--soft)}
.tabs a[aria-selected=true]{background:#fff;font-weight:600;position:relative;top:1px}
.formula-bar{display:flex;gap:.5rem;align-items:center;margin:.75rem 0}
.formula-bar output{min-width:4rem;font-family:ui-monospace,monospace;padding:.35rem .5rem;border:1px solid var(--line);border-radius:6px;background:var(--soft)}
.formula-bar input{flex:1;font-family:ui-monospace,monospace}
.formula-bar #cell-address{flex:0 0 6rem;text-align:center}
.formula-bar::before{content:"fx";font-style:italic;color:var(--muted);order:1}
.formula-bar #formula{order:2}
.formula-bar button{order:3}
.grid-wrap{overflow:auto;max-height:70vh;border:1px solid var(--line)}
table.grid{border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
table.grid th{background:var(--soft);color:var(--muted);font-weight:600;padding:.2rem .5rem;border:1px solid var(--line);position:sticky;top:0}
table.grid th[scope=row]{position:sticky;left:0;text-align:right}
table.grid td{border:1px solid var(--line);padding:.2rem .5rem;min-width:6rem;height:1.8rem;white-space:nowrap;max-width:18rem;overflow:hidden;text-overflow:ellipsis}
table.grid td.number{text-align:right}
table.grid td.boolean,table.grid td.error{text-align:center}
table.grid td.error{color:var(--danger)}
table.grid td[aria-selected=true]{outline:2px solid var(--accent);outline-offset:-2px;background:#eef4ff}
.status{min-height:1.5rem;margin:0 0 .25rem;color:var(--muted)}
@media (max-width:48rem){.editor,.conflict{grid-template-columns:1fr}}
`;
