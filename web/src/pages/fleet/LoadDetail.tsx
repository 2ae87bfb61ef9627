import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function LoadDetailPage() {
  return <PageHeader title="LoadDetail" />;
}
