import { useEffect, useRef } from 'react';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import type { RootState } from '@dash/shell-sdk';
import { selectExpiredCount } from '../store';
import { isPublicPath, signInPath } from './returnTo';

/**
 * When any call answers 401 (the sdk dispatches `sessionExpired`), send the user to sign-in and bring them
 * back afterwards. Public pages (sign-in itself, terms, privacy, support) stay where they are.
 */
export function SessionWatcher() {
  const count = useSelector((state: RootState) => selectExpiredCount(state));
  const seen = useRef(count);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (count === seen.current) return;
    seen.current = count;
    if (isPublicPath(location.pathname)) return;
    navigate(signInPath(`${location.pathname}${location.search}${location.hash}`), { replace: true });
  }, [count, location, navigate]);

  return null;
}
