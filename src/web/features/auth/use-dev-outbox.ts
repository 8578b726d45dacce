import { useQuery } from '@tanstack/react-query';
import type { OutboxResponse } from '@core/api/mail';
import { api } from '@web/lib/api';

/** GET /api/dev/outbox: the mails sent without an SMTP server, every 5 s (a 404 where there is none). */
export function useDevOutbox() {
  return useQuery({
    queryKey: ['dev', 'outbox'],
    queryFn: async ({ signal }) => (await api<OutboxResponse>('/api/dev/outbox', { signal, token: null })).data,
    refetchInterval: 5000,
    retry: false,
  });
}
