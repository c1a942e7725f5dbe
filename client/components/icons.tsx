import { Icon } from './icon.js'

export const HomeIcon = () => (
  <Icon>
    <path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z" />
  </Icon>
)
export const ExploreIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="m15.5 8.5-2 5-5 2 2-5z" />
  </Icon>
)
export const BookmarkIcon = ({ filled = false }: { filled?: boolean }) => (
  <Icon filled={filled}>
    <path d="M6 3h12a1 1 0 0 1 1 1v17l-7-4.5L5 21V4a1 1 0 0 1 1-1z" />
  </Icon>
)
export const ListIcon = () => (
  <Icon>
    <path d="M8 6h13M8 12h13M8 18h13" />
    <path d="M3.5 6h.01M3.5 12h.01M3.5 18h.01" />
  </Icon>
)

export const ProfileIcon = () => (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
  </Icon>
)
export const ShieldIcon = () => (
  <Icon>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z" />
  </Icon>
)
export const HeartIcon = ({ filled = false }: { filled?: boolean }) => (
  <Icon filled={filled}>
    <path d="M12 20s-7.5-4.6-9.2-9.3C1.7 7.4 4 4 7.4 4c2 0 3.5 1.1 4.6 2.7C13.1 5.1 14.6 4 16.6 4 20 4 22.3 7.4 21.2 10.7 19.5 15.4 12 20 12 20z" />
  </Icon>
)
export const CommentIcon = () => (
  <Icon>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z" />
  </Icon>
)
export const ShareIcon = () => (
  <Icon>
    <path d="M12 3v12M7 8l5-5 5 5M5 14v5a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-5" />
  </Icon>
)
export const DotsIcon = () => (
  <Icon filled>
    <circle cx="5" cy="12" r="1.5" />
    <circle cx="12" cy="12" r="1.5" />
    <circle cx="19" cy="12" r="1.5" />
  </Icon>
)
export const ImageIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 16-5-5-9 9" />
  </Icon>
)
export const SmileIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </Icon>
)
export const FeatherIcon = () => (
  <Icon>
    <path d="M20 4c-6 0-12 4-13.5 11.5L4 20M20 4c0 8-5 13-12.5 12.5M20 4 9 15" />
  </Icon>
)
export const LinkIcon = () => (
  <Icon>
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </Icon>
)
export const BackIcon = () => (
  <Icon>
    <path d="M20 12H4M10 6l-6 6 6 6" />
  </Icon>
)
export const BellIcon = () => (
  <Icon>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" />
  </Icon>
)
export const AtIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="4" />
    <path d="M16 8v5a3 3 0 0 0 6 0v-1a10 10 0 1 0-4 8" />
  </Icon>
)
export const FollowIcon = () => (
  <Icon>
    <circle cx="10" cy="8" r="4" />
    <path d="M2 21c0-4 3.6-7 8-7 1.5 0 2.9.3 4 1M19 14v6M16 17h6" />
  </Icon>
)
export const SearchIcon = () => (
  <Icon>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-4-4" />
  </Icon>
)
export const PollIcon = () => (
  <Icon>
    <path d="M5 20V10m7 10V4m7 16v-7" />
  </Icon>
)
export const RepostIcon = () => (
  <Icon>
    <path d="M7 7h10l-3-3M17 17H7l3 3" />
    <path d="M4 13V9a2 2 0 0 1 2-2M20 11v4a2 2 0 0 1-2 2" />
  </Icon>
)
export const QuoteIcon = () => (
  <Icon>
    <path d="M9 7H5v5h4v-5zM9 12c0 3-1.5 5-4 5M19 7h-4v5h4v-5zM19 12c0 3-1.5 5-4 5" />
  </Icon>
)
export const PinIcon = () => (
  <Icon>
    <path d="M9 3h6l-1 6 4 4H6l4-4zM12 13v8" />
  </Icon>
)
export const LockIcon = () => (
  <Icon>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Icon>
)
export const UnlockIcon = () => (
  <Icon>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 7.7-1.5" />
  </Icon>
)
export const GlobeIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
  </Icon>
)
export const MailIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </Icon>
)
