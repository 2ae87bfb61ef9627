/** A report's loading and error states around what it renders once loaded (the analytics page's cards). */
import type { ReactNode } from 'react';
import { Button, ErrorBanner, Loading } from '../../components/ui';
import type { Loaded } from '../../lib/use-api';

export function AnalyticsSection<T>({ loaded, title, children }: { loaded: Loaded<T>; title?: string; children: (data: T) => ReactNode }) {
  if (loaded.error && !loaded.data)
    return (
      <div className="card">
        {title && <h3 className="chart-title">{title}</h3>}
        <ErrorBanner error={loaded.error} />
        <Button onClick={loaded.reload}>Try again</Button>
      </div>
    );
  if (!loaded.data)
    return (
      <div className="card">
        {title && <h3 className="chart-title">{title}</h3>}
        <Loading />
      </div>
    );
  return <>{children(loaded.data)}</>;
}
