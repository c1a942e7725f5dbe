import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { TrendingTags } from '../components/trending-tags.js'
import { loadTrending, search } from '../state/search.js'

/** The trending tags, loaded when first shown. */
export function TrendingPanel() {
  const { trending, trendingLoaded, trendingFailed } = useSnapshot(search)
  useEffect(() => {
    void loadTrending()
  }, [])
  return <TrendingTags tags={trending} loaded={trendingLoaded} failed={trendingFailed} />
}
