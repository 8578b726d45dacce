/** Small inline flags (emoji flags do not render everywhere). Decorative: aria-hidden. */
export function FlagGabon({ className }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 60 40" className={className}>
      <rect width="60" height="40" fill="#3a75c4" />
      <rect width="60" height="26.67" fill="#fcd116" />
      <rect width="60" height="13.33" fill="#009e60" />
    </svg>
  );
}

export function FlagRwanda({ className }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 60 40" className={className}>
      <rect width="60" height="40" fill="#20603d" />
      <rect width="60" height="30" fill="#fad201" />
      <rect width="60" height="20" fill="#00a1de" />
      <circle cx="48" cy="8" r="4" fill="#e5be01" />
    </svg>
  );
}

export function FlagFrance({ className }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 60 40" className={className}>
      <rect width="60" height="40" fill="#ef4135" />
      <rect width="40" height="40" fill="#ffffff" />
      <rect width="20" height="40" fill="#0055a4" />
    </svg>
  );
}
