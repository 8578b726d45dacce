import { useE2eApp } from './support/fixtures.js';
import { describeAuditLog } from './one-server/audit-log.js';
import { describeFrozenMoney } from './one-server/frozen-money.js';
import { describeProfileSecurity } from './one-server/profile-security.js';
import { describeRateSources } from './one-server/rate-sources.js';
import { describeRegionNames } from './one-server/region-names.js';
import { describeShell } from './one-server/shell.js';
import { describeYourData } from './one-server/your-data.js';

// Short journeys that do not depend on each other's data share one server and one browser: a
// server's start costs more than most of them. Each reads only the people and transfers it made.
// The audit log comes first (its rows are looked for on its first page), the sanctions list and
// the rates the last two change, last.
const app = useE2eApp({ smtp: true });

describeAuditLog(app);
describeShell(app);
describeRegionNames(app);
describeYourData(app);
describeProfileSecurity(app);
describeFrozenMoney(app);
describeRateSources(app);
