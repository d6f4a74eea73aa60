WHERE <@dates.recent_only column='created_at'/>
