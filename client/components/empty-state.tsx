export function EmptyState({ text }: { text: string }) {
  return <p className="empty-state">{text}</p>
}
