// The app's side navigation (spec §2 Sidebar): tools, admin links, settings, view-mode banner, account footer.
import { useId, useState, type ComponentType, type ReactNode } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { useAuth } from "../lib/auth";
import { useAiChatTarget } from "../features/reports";
import { GROUP_LABELS, SIDEBAR_GROUPS, TOOLS, type Tool, type ToolGroup } from "../lib/tools";
import { clearViewAs, dashboardPath, useViewAs } from "../lib/view-as";
import { Badge } from "../design/badge";
import { Brand } from "../features/brand";
import { PlanBadge } from "../features/billing";
import { Button } from "../design/button";
import {
  BookIcon,
  BellIcon,
  BriefcaseIcon,
  CodeIcon,
  KeyIcon,
  TagIcon,
  BuildingIcon,
  CardIcon,
  ChatIcon,
  ChevronRightIcon,
  CloseIcon,
  DashboardIcon,
  EyeIcon,
  FileTextIcon,
  LinkIcon,
  LogOutIcon,
  SearchIcon,
  ShareIcon,
  StarIcon,
  StoreIcon,
  TrendingUpIcon,
  UserIcon,
  UsersIcon,
} from "../design/icons";
import { CompanyLogo } from "../design/company-logo";
import { EmailText } from "../design/email-text";
import { NotificationBell } from "../features/notifications";

type IconComponent = ComponentType<{ size?: "sm" | "md" }>;

const GROUP_ICONS: Record<ToolGroup, IconComponent> = { content: FileTextIcon, social: ShareIcon, search: SearchIcon, reputation: StarIcon };

type NavLinkRow = { to: string; icon: IconComponent; label: string };

const ADMIN_LINKS: NavLinkRow[] = [
  { to: "/admin/attention", icon: BellIcon, label: "Needs Attention" },
  { to: "/admin/clients", icon: StoreIcon, label: "Clients" },
  { to: "/admin/report-generator", icon: BriefcaseIcon, label: "Prospects" },
  { to: "/admin/pipeline", icon: TrendingUpIcon, label: "Pipeline" },
  { to: "/admin/users", icon: UsersIcon, label: "Users" },
  { to: "/admin/widgets", icon: CodeIcon, label: "Widgets" },
  { to: "/admin/brand", icon: TagIcon, label: "Brand" },
  { to: "/admin/client-reports", icon: FileTextIcon, label: "Client Reports" },
  { to: "/admin/setup", icon: KeyIcon, label: "Set-up" },
];

const SETTINGS_LINKS: NavLinkRow[] = [
  { to: "/settings/personal", icon: BuildingIcon, label: "Business Settings" },
  { to: "/settings/account", icon: UserIcon, label: "Account" },
  { to: "/integrations", icon: LinkIcon, label: "Integrations" },
  { to: "/usage", icon: TrendingUpIcon, label: "AI Usage" },
];

type SidebarProps = {
  /** Phone drawer state; on desktop the sidebar is always shown. */
  open?: boolean;
  onClose?: () => void;
  /** Called when a link is followed (the drawer closes). */
  onNavigate?: () => void;
  id?: string;
};

export function Sidebar({ open = false, onClose, onNavigate, id = "app-sidebar" }: SidebarProps) {
  const { user, session, isAdmin, signOut, profile } = useAuth();
  const viewAs = useViewAs();
  const navigate = useNavigate();
  const showAdmin = isAdmin && !viewAs;
  const aiChatTarget = useAiChatTarget(showAdmin, session?.access_token);
  const email = user?.email ?? "Unknown Email";

  async function handleSignOut() {
    onNavigate?.();
    await signOut();
    navigate("/login", { replace: true });
  }

  function backToClients() {
    onNavigate?.();
    navigate("/admin/clients");
  }

  function returnToAdminView() {
    clearViewAs();
    onNavigate?.();
    navigate("/dashboard");
  }

  return (
    <aside id={id} className={open ? "sidebar is-open" : "sidebar"} aria-label="Sidebar">
      <div className="sidebar-head">
        <Brand to={dashboardPath(viewAs)} onClick={onNavigate} />
        <NotificationBell className="bell-desktop" />
        <button type="button" className="icon-button sidebar-close" aria-label="Close menu" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>

      {viewAs ? (
        <div className="view-banner" role="status">
          <p className="view-banner-label">
            <EyeIcon size="sm" />
            {viewAs.scoped ? "Reading a client's screen" : "Viewing as user"}
          </p>
          <p className="view-banner-company">{viewAs.viewingUserDetails.company_name || "Unknown Company"}</p>
          {viewAs.scoped ? (
            <Button variant="primary" size="sm" block onClick={backToClients}>
              Back to Clients
            </Button>
          ) : (
            <Button variant="primary" size="sm" block onClick={returnToAdminView}>
              Return to Admin View
            </Button>
          )}
        </div>
      ) : null}

      <nav className="sidebar-scroll" aria-label="Main">
        <ul className="nav-list">
          <li>
            <NavItem to={dashboardPath(viewAs)} icon={DashboardIcon} onNavigate={onNavigate}>
              Dashboard
            </NavItem>
          </li>
          <li>
            <NavItem to="/reports" icon={BookIcon} onNavigate={onNavigate}>
              Reports
            </NavItem>
          </li>
        </ul>

        <NavSection title="Tools">
          {SIDEBAR_GROUPS.map((group) => (
            <li key={group}>
              <ToolGroupNav group={group} onNavigate={onNavigate} />
            </li>
          ))}
        </NavSection>

        {showAdmin ? (
          <NavSection title="Admin">
            <NavLinks links={ADMIN_LINKS} onNavigate={onNavigate} />
            <li>
              {aiChatTarget ? (
                <NavItem to={aiChatTarget} icon={ChatIcon} onNavigate={onNavigate}>
                  AI Chat
                </NavItem>
              ) : (
                <span className="nav-item is-disabled" data-testid="ai-chat-text">
                  <ChatIcon />
                  <span className="nav-item-label">AI Chat</span>
                </span>
              )}
            </li>
          </NavSection>
        ) : null}

        <NavSection title="Settings">
          <NavLinks links={SETTINGS_LINKS} onNavigate={onNavigate} />
          <li>
            <NavItem to="/subscription" icon={CardIcon} onNavigate={onNavigate} badge={<PlanBadge />}>
              Subscription
            </NavItem>
          </li>
        </NavSection>
      </nav>

      <div className="sidebar-foot">
        {/* The business's logo (the viewed user's while viewing as them), else the email's initial. */}
        <CompanyLogo
          url={viewAs ? viewAs.viewingUserDetails.company_logo_url : profile?.company_logo_url}
          name={email}
          className="avatar"
        />
        <div className="sidebar-user">
          <p>
            <EmailText className="sidebar-email" email={email} oneLine />
          </p>
          {viewAs ? (
            <p className="sidebar-role">
              <Badge tone="view">View Mode</Badge>
            </p>
          ) : isAdmin ? (
            <p className="sidebar-role">
              <Badge tone="admin">Admin</Badge>
            </p>
          ) : null}
        </div>
        <button type="button" className="icon-button" aria-label="Sign out" title="Sign out" onClick={handleSignOut}>
          <LogOutIcon />
        </button>
      </div>
    </aside>
  );
}

function NavSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <div className="nav-section">
      <h2 className="nav-section-title" id={headingId}>
        {title}
      </h2>
      <ul className="nav-list" aria-labelledby={headingId}>
        {children}
      </ul>
    </div>
  );
}

function NavLinks({ links, onNavigate }: { links: NavLinkRow[]; onNavigate?: () => void }) {
  return links.map(({ to, icon, label }) => (
    <li key={to}>
      <NavItem to={to} icon={icon} onNavigate={onNavigate}>
        {label}
      </NavItem>
    </li>
  ));
}

function NavItem({
  to,
  icon: Icon,
  children,
  badge,
  onNavigate,
}: {
  to: string;
  icon: IconComponent;
  children: ReactNode;
  badge?: ReactNode;
  onNavigate?: () => void;
}) {
  return (
    <NavLink to={to} end className="nav-item" onClick={onNavigate}>
      <Icon />
      <span className="nav-item-label">{children}</span>
      {badge}
    </NavLink>
  );
}

function ToolGroupNav({ group, onNavigate }: { group: ToolGroup; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const [toggled, setToggled] = useState(false);
  const listId = useId();
  // A group is open while one of its tools is the page (spec §2: Social on the Facebook Post Generator).
  const forced = TOOLS.some((t) => t.group === group && t.available && t.path === pathname);
  const expanded = forced || toggled;
  const Icon = GROUP_ICONS[group];
  return (
    <>
      <button
        type="button"
        className="nav-item nav-group-toggle"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setToggled(!expanded)}
      >
        <Icon />
        <span className="nav-item-label">{GROUP_LABELS[group].sidebar}</span>
        <ChevronRightIcon className="chevron" />
      </button>
      <ul className="nav-list nav-sublist" id={listId} hidden={!expanded}>
        {TOOLS.filter((t) => t.group === group).map((tool) => (
          <li key={tool.path}>
            <ToolLink tool={tool} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ToolLink({ tool, onNavigate }: { tool: Tool; onNavigate?: () => void }) {
  if (!tool.available) {
    return (
      <span className="nav-item is-disabled" aria-disabled="true" title="Coming soon">
        <span className="nav-item-label">
          {tool.name}
          <span className="visually-hidden"> (coming soon)</span>
        </span>
      </span>
    );
  }
  return (
    <NavLink to={tool.path} end className="nav-item" onClick={onNavigate}>
      <span className="nav-item-label">{tool.name}</span>
      {tool.isNew ? <Badge tone="new">New</Badge> : null}
    </NavLink>
  );
}
