import { LegalPage } from './legal-page';

export default function CompliancePage() {
  return <LegalPage page="compliance" />;
}
