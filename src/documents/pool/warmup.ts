// A document that exercises every construct the renderer handles, rendered a few times when a
// worker starts so that the first real render runs on optimised code instead of paying for the
// JIT (a cold 400k render takes two to three times as long as a warm one).
const block = (i: number) => `## Section ${i}: pipeline review

An opening paragraph with **bold**, *italic*, ***both***, ~~struck~~, \`inline code\`, a
[link](https://example.com/plan?q=${i}&x=2 "The plan") and an autolink <https://example.org/${i}>,
www.example.net/${i} and ops${i}@example.com. A hard break follows:\\
on the same paragraph. Tabs\tstay tabs.

- first bullet with **bold**
  - nested bullet
    - third level
- [ ] an open task
- [x] a finished task

${i + 2}. ordered, starting later
${i + 3}. next
   1. nested ordered
   2. two

| Item | Owner | Amount | Notes |
|:-----|:-----:|-------:|-------|
| Licences | *ops* | 1,200.${i} | [renewal](https://example.com/r/${i}) |
| Hosting | dev | 3,450.50 | \`eu-west\` |
| Total | | **4,650.50** |

\`\`\`ts
export function total(xs: number[]): number {
    return xs.reduce((a, b) => a + b, 0);   // keeps   spacing
}
\`\`\`

    an indented code block

> A quotation, with **bold** inside.
>
> > And a nested quotation.

---

<div>raw html ${i}</div> and <span>inline html</span>

![A chart](https://example.com/chart-${i}.png)
`;

export function warmupMarkdown(sections = 40): string {
  return Array.from({ length: sections }, (_, i) => block(i + 1)).join("\n");
}
