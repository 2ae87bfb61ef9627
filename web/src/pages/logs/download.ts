/** Downloads a driver's printable log (GET /drivers/{id}/logs.pdf): the request carries the session's token, so it is fetched, then saved. */
import { api, unwrap } from '../../api/client';

export async function downloadLogPdf(driverId: string, from: string, to: string): Promise<void> {
  let filename = `log-${from}${to === from ? '' : `-${to}`}.pdf`;
  const blob = await unwrap(
    api.GET('/api/v1/drivers/{driverId}/logs.pdf', { params: { path: { driverId }, query: { from, to } }, parseAs: 'blob' }).then((r) => {
      filename = /filename="([^"]+)"/.exec(r.response.headers.get('content-disposition') ?? '')?.[1] ?? filename;
      return r;
    }),
  );
  const url = URL.createObjectURL(blob as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
