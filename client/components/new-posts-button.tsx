type NewPostsButtonProps = { count: number; onShow: () => void }

/**
 * Others' new posts wait behind this button instead of pushing the list down under the
 * reader. It stays in view while the list scrolls. The live region is there even while empty, because
 * screen readers announce changes to a region they already know, not a region that has just appeared.
 */
export function NewPostsButton({ count, onShow }: NewPostsButtonProps) {
  return (
    <div className="new-posts" aria-live="polite">
      {count > 0 && (
        <button type="button" className="button primary small new-posts-button" onClick={onShow}>
          {count === 1 ? '1 new post' : `${count} new posts`}
        </button>
      )}
    </div>
  )
}
