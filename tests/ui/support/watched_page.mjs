// A page as every UI test opens one: the viewport the screenshots are judged at, confirm()
// accepted (its question recorded, so a test can assert what was asked), any other dialog
// dismissed and recorded (a UI that alerts is a defect), and Content-Security-Policy
// violations recorded from the console.

/**
 * @param {import('puppeteer-core').BrowserContext} context
 * @param {{confirms: string[], dialogs: string[], cspViolations: string[]}} seen
 */
export async function watchedPage(context, { confirms, dialogs, cspViolations }) {
  const p = await context.newPage();
  await p.setViewport({ width: 1360, height: 900 });
  p.on('dialog', async (d) => {
    if (d.type() === 'confirm') {
      confirms.push(d.message());
      await d.accept();
    } else {
      dialogs.push(d.message());
      await d.dismiss();
    }
  });
  p.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
  });
  return p;
}
